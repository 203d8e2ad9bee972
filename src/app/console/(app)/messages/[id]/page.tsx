import { notFound } from "next/navigation";
import { MessageDetail } from "./message-detail";

export const metadata = { title: "Message" };

type Props = { params: Promise<{ id: string }> };

/** A renter message: `/console/messages/<id>`. */
export default async function MessagePage({ params }: Props) {
  const { id } = await params;
  if (!/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > 2_147_483_647) notFound();
  return <MessageDetail id={Number(id)} />;
}
