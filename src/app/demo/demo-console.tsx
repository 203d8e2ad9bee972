"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { FramingPlan } from "@/features/demo/origins";
import { DeliveriesPanel } from "./deliveries-panel";
import { MessageLog } from "./message-log";
import { RenterMessagesPanel } from "./renter-messages-panel";

type Scenario = { id: string; label: string; hint: string };
type Exchange = { method: string; path: string; status: number; body: unknown };
type Logged = Exchange & { seq: number };
type Prospect = Record<string, unknown> & { source_prospect_id?: string; status?: string; enrollment_url?: string | null };
type Earlier = { source_prospect_id: string; email: string | null; status: string; created_at: string };
type CallResult = { exchanges: Exchange[]; prospect?: Prospect };

const POLL_MS = 1_000;
const POLL_LIMIT = 30;
const REASON_KEYS = ["sdi_ineligibility_reasons", "cd_ineligibility_reasons", "rg_ineligibility_reasons"] as const;

type Props = {
  partner: { ownerSlug: string; source: string; clientId: string };
  scenarios: Scenario[];
  plan: FramingPlan;
  receiver: { destination: string; reachable: boolean };
};

export function DemoConsole({ partner, scenarios, plan, receiver }: Props) {
  const [scenario, setScenario] = useState(scenarios[0]?.id ?? "standard");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [exchanges, setExchanges] = useState<Logged[]>([]);
  const seq = useRef(0);
  const [prospect, setProspect] = useState<Prospect | null>(null);
  const [earlier, setEarlier] = useState<Earlier[]>([]);
  const [picked, setPicked] = useState("");
  const frame = useRef<HTMLIFrameElement>(null);
  const run = useRef(0);

  const loadEarlier = useCallback(async () => {
    const answer = await fetch("/demo/api/prospects", { cache: "no-store" });
    if (answer.ok) setEarlier(((await answer.json()) as { prospects: Earlier[] }).prospects);
  }, []);
  useEffect(() => {
    loadEarlier();
  }, [loadEarlier]);

  const record = (result: CallResult) => {
    const logged = result.exchanges.map((exchange) => ({ ...exchange, seq: ++seq.current })).reverse();
    setExchanges((before) => [...logged, ...before].slice(0, 12));
  };

  /** Eligibility is a job: read the prospect again until it has its link or says why not. */
  const follow = async (id: string, current: number) => {
    for (let attempt = 0; attempt < POLL_LIMIT && run.current === current; attempt++) {
      const answer = await fetch(`/demo/api/prospects/${encodeURIComponent(id)}`, { cache: "no-store" });
      const result = (await answer.json()) as CallResult;
      record(result);
      if (run.current !== current) return;
      if (!result.prospect) return setProblem("The Partner API did not answer the prospect: see the calls below.");
      setProspect(result.prospect);
      if (result.prospect.enrollment_url || result.prospect.status !== "processing") return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  const start = async (work: (current: number) => Promise<void>) => {
    const current = ++run.current;
    setBusy(true);
    setProblem(null);
    setProspect(null);
    try {
      await work(current);
    } catch (error) {
      setProblem(`Something went wrong: ${(error as Error).message}`);
    } finally {
      if (run.current === current) setBusy(false);
      loadEarlier();
    }
  };

  const create = (event: React.FormEvent) => {
    event.preventDefault();
    start(async (current) => {
      const answer = await fetch("/demo/api/prospects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ scenario }),
      });
      const result = (await answer.json()) as CallResult & { error?: string };
      record({ exchanges: result.exchanges ?? [] });
      const id = result.prospect?.source_prospect_id;
      if (!id) return setProblem(result.error ?? "The Partner API refused the prospect: see the calls below.");
      setProspect(result.prospect ?? null);
      await follow(id, current);
    });
  };

  const pick = (event: React.FormEvent) => {
    event.preventDefault();
    if (picked) start((current) => follow(picked, current));
  };

  const reasons = prospect ? REASON_KEYS.flatMap((key) => (Array.isArray(prospect[key]) ? (prospect[key] as string[]) : [])) : [];
  const url = prospect?.enrollment_url ?? null;

  return (
    <div className="demo-grid">
      <div className="demo-column">
        <section className="demo-panel" aria-labelledby="partner-heading">
          <h2 id="partner-heading">1. Push a renter</h2>
          <p className="muted">
            As the demo partner (<code>{partner.clientId}</code>), owner <code>{partner.ownerSlug}</code>, source <code>{partner.source}</code>: a token
            exchange, then a signed <code>POST /api/partners/{partner.ownerSlug}/prospects</code>.
          </p>
          <form onSubmit={create}>
            <fieldset>
              <legend>Renter</legend>
              {scenarios.map((option) => (
                <label key={option.id} className="demo-choice">
                  <input type="radio" name="scenario" value={option.id} checked={scenario === option.id} onChange={() => setScenario(option.id)} />
                  <span>
                    {option.label}
                    <span className="muted"> — {option.hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <button type="submit" disabled={busy}>
              Create prospect
            </button>
          </form>
          {earlier.length > 0 && (
            <form onSubmit={pick} className="demo-pick">
              <label htmlFor="earlier">Or open an earlier demo renter</label>
              <div className="demo-row">
                <select id="earlier" value={picked} onChange={(event) => setPicked(event.target.value)}>
                  <option value="">Choose…</option>
                  {earlier.map((row) => (
                    <option key={row.source_prospect_id} value={row.source_prospect_id}>
                      {row.email ?? row.source_prospect_id} ({row.status})
                    </option>
                  ))}
                </select>
                <button type="submit" disabled={busy || !picked}>
                  Open
                </button>
              </div>
            </form>
          )}
          {problem && <p role="alert">{problem}</p>}
        </section>

        <section className="demo-panel" aria-labelledby="frame-heading">
          <h2 id="frame-heading">2. The embedded flow</h2>
          {plan.crossOrigin ? (
            <p className="muted">
              This page (<code>{plan.pageOrigin}</code>) frames the enrollment host (<code>{plan.enrollmentOrigin}</code>): another origin, as on a
              partner&apos;s site.
            </p>
          ) : (
            <p className="demo-note">
              This page is on the enrollment host&apos;s own origin (<code>{plan.enrollmentOrigin}</code>), so the frame is not cross-origin.
              {plan.alternativePage && (
                <>
                  {" "}
                  Open <a href={plan.alternativePage}>this demo on {new URL(plan.alternativePage).origin}</a> to frame it from another origin.
                </>
              )}
            </p>
          )}
          <p role="status" data-testid="prospect-state">
            {prospect
              ? `${prospect.source_prospect_id}: ${prospect.status}${url ? " — enrollment link ready" : prospect.status === "processing" ? " — waiting for eligibility…" : " — no enrollment link"}`
              : busy
                ? "Calling the Partner API…"
                : "No renter yet."}
          </p>
          {prospect && !url && reasons.length > 0 && (
            <ul aria-label="Why there is no enrollment link">
              {reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          )}
          {url && (
            <>
              <p className="demo-url">
                <code>{url}</code>
              </p>
              <iframe ref={frame} key={url} title="Embedded enrollment" src={url} className="demo-frame" />
            </>
          )}
        </section>
      </div>

      <div className="demo-column">
        <MessageLog enrollmentOrigin={plan.enrollmentOrigin} frame={frame} />
        <DeliveriesPanel receiver={receiver} />
        <RenterMessagesPanel />
        <section className="demo-panel" aria-labelledby="calls-heading">
          <h2 id="calls-heading">Partner API calls</h2>
          {exchanges.length === 0 ? (
            <p>None yet.</p>
          ) : (
            <ol className="demo-calls">
              {exchanges.map((exchange) => (
                <li key={exchange.seq}>
                  <details>
                    <summary>
                      <code>
                        {exchange.method} {exchange.path}
                      </code>{" "}
                      → <strong>{exchange.status}</strong>
                    </summary>
                    <pre>{JSON.stringify(exchange.body, null, 2)}</pre>
                  </details>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}
