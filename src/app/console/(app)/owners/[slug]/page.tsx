import { notFound } from "next/navigation";
import { OwnerDetail } from "./owner-detail";

export const metadata = { title: "Owner" };

export default async function OwnerPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  let decoded: string;
  try {
    decoded = decodeURIComponent(slug);
  } catch {
    notFound();
  }
  return <OwnerDetail slug={decoded} />;
}
