import { notFound } from "next/navigation";
import { ProspectDetail } from "./prospect-detail";

export const metadata = { title: "Prospect" };

type Props = { params: Promise<{ id: string }> };

/** A prospect by its numeric id (`tpp_<id>` in the API). */
export default async function ProspectPage({ params }: Props) {
  const { id } = await params;
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) notFound();
  return <ProspectDetail id={Number(id)} />;
}
