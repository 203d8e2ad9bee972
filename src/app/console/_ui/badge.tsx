import styles from "./ui.module.css";

type Tone = "success" | "danger" | "warning" | "info" | "neutral";

/** Statuses of the service's records and the tone they read in (delivery, prospect, policy, ingestion…). */
const TONES: Record<string, Tone> = {
  delivered: "success",
  succeeded: "success",
  success: "success",
  applied: "success",
  active: "success",
  eligible: "success",
  enrolled: "success",
  approved: "success",
  ready: "success",
  processing: "warning",
  error: "danger",
  quoted: "success",
  failed: "danger",
  rejected: "danger",
  dead: "danger",
  disabled: "danger",
  ineligible: "danger",
  declined: "danger",
  canceled: "neutral",
  cancelled: "neutral",
  expired: "neutral",
  skipped: "neutral",
  inactive: "neutral",
  pending: "warning",
  retrying: "warning",
  scheduled: "warning",
  in_progress: "warning",
  incomplete: "warning",
  upcoming: "info",
  paused: "warning",
};

export function Badge({ status, tone, children }: { status?: string; tone?: Tone; children?: React.ReactNode }) {
  const resolved = tone ?? (status ? (TONES[status.toLowerCase()] ?? "neutral") : "neutral");
  return <span className={`${styles.badge} ${styles[`tone_${resolved}`]}`}>{children ?? status?.replaceAll("_", " ")}</span>;
}
