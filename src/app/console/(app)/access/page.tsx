import { redirect } from "next/navigation";

/** The console's Access item lands on the API clients; the access sub-navigation leads to the rest. */
export default function AccessPage() {
  redirect("/console/access/clients");
}
