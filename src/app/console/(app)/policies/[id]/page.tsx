import { notFound } from "next/navigation";
import { PolicyDetail } from "./policy-detail";

export const metadata = { title: "Policy" };

type Props = { params: Promise<{ id: string }> };

/** `admin_policy_url` (decisions §11): `/console/policies/<numeric id>`. */
export default async function PolicyPage({ params }: Props) {
  const { id } = await params;
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) notFound();
  return <PolicyDetail id={Number(id)} />;
}
