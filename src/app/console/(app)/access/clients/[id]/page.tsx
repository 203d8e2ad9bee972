import { notFound } from "next/navigation";
import { ClientDetail } from "./client-detail";

export const metadata = { title: "API client" };

export default async function ClientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const clientId = decodeURIComponent(id);
  if (!/^[a-z]{2}_[A-Za-z0-9_-]{1,100}$/.test(clientId)) notFound();
  return <ClientDetail clientId={clientId} />;
}
