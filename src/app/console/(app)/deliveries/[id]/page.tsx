import { notFound } from "next/navigation";
import { DeliveryDetail } from "./delivery-detail";

export const metadata = { title: "Delivery" };

type Props = { params: Promise<{ id: string }> };

/** A delivery's permanent address: `/console/deliveries/<delivery id>` (its `X-Webhook-Delivery`). */
export default async function DeliveryPage({ params }: Props) {
  const { id } = await params;
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) notFound();
  return <DeliveryDetail id={id} />;
}
