import { notFound } from "next/navigation";
import { BuildingDetail } from "./building-detail";

export const metadata = { title: "Building" };

export default async function BuildingPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) notFound();
  return <BuildingDetail id={Number(id)} />;
}
