"use client";
import type { ReactElement, ReactNode } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ConsoleOutputs } from "../../_ui";

type Point = ConsoleOutputs["overview"]["deliveries"]["hourly"][number];

const hourLabel = (iso: string) => new Date(iso).toLocaleTimeString("en-US", { hour: "numeric" });
const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(rate === 1 ? 0 : 1)}%`);
const ms = (value: number | null) => (value === null ? "—" : `${Math.round(value)} ms`);

/**
 * A chart with its summary for screen readers and its figures as a table (charts alone are neither
 * keyboard- nor screen-reader-friendly).
 */
function ChartFigure({ title, summary, table, children }: { title: string; summary: string; table: ReactNode; children: ReactElement }) {
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div role="img" aria-label={`${title}: ${summary}`} className="chart-area">
        <ResponsiveContainer width="100%" height={220}>
          {children}
        </ResponsiveContainer>
      </div>
      <details>
        <summary>Figures</summary>
        {table}
      </details>
    </figure>
  );
}

function FiguresTable({ points, columns }: { points: Point[]; columns: [string, (point: Point) => string][] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className="figures" tabIndex={0} aria-label="Figures per hour">
      <table>
        <thead>
          <tr>
            <th scope="col">Hour</th>
            {columns.map(([label]) => (
              <th key={label} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.hour}>
              <td>{hourLabel(point.hour)}</td>
              {columns.map(([label, value]) => (
                <td key={label}>{value(point)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function SuccessRateChart({ points }: { points: Point[] }) {
  const data = points.map((point) => ({ hour: hourLabel(point.hour), rate: point.success_rate === null ? null : Math.round(point.success_rate * 1000) / 10 }));
  const busy = points.filter((point) => point.attempts > 0);
  const lowest = busy.reduce<Point | null>((low, point) => (low === null || (point.success_rate ?? 1) < (low.success_rate ?? 1) ? point : low), null);
  const summary = busy.length ? `lowest ${percent(lowest?.success_rate ?? null)} at ${hourLabel(lowest?.hour ?? "")}` : "no attempts in the last 24 hours";
  return (
    <ChartFigure
      title="Delivery success rate per hour"
      summary={summary}
      table={
        <FiguresTable
          points={points}
          columns={[
            ["Attempts", (p) => String(p.attempts)],
            ["Succeeded", (p) => String(p.succeeded)],
            ["Success rate", (p) => percent(p.success_rate)],
          ]}
        />
      }
    >
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e3e7ee" />
        <XAxis dataKey="hour" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={24} />
        <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 12 }} width={48} />
        <Tooltip formatter={(value) => [`${value}%`, "Success rate"]} />
        <Line type="monotone" dataKey="rate" name="Success rate" stroke="#1e8a45" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
      </LineChart>
    </ChartFigure>
  );
}

export function LatencyChart({ points }: { points: Point[] }) {
  const data = points.map((point) => ({ hour: hourLabel(point.hour), p50: point.p50_ms, p95: point.p95_ms }));
  const worst = points.reduce<Point | null>((high, point) => (point.p95_ms !== null && (high?.p95_ms ?? -1) < point.p95_ms ? point : high), null);
  const summary = worst ? `highest p95 ${ms(worst.p95_ms)} at ${hourLabel(worst.hour)}` : "no attempts in the last 24 hours";
  return (
    <ChartFigure
      title="Attempt latency per hour (p50, p95)"
      summary={summary}
      table={
        <FiguresTable
          points={points}
          columns={[
            ["p50", (p) => ms(p.p50_ms)],
            ["p95", (p) => ms(p.p95_ms)],
          ]}
        />
      }
    >
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e3e7ee" />
        <XAxis dataKey="hour" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={24} />
        <YAxis unit=" ms" tick={{ fontSize: 12 }} width={64} />
        <Tooltip formatter={(value, name) => [`${Math.round(Number(value))} ms`, name]} />
        <Legend />
        <Line type="monotone" dataKey="p50" name="p50" stroke="#2456c9" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
        <Line type="monotone" dataKey="p95" name="p95" stroke="#b45309" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
      </LineChart>
    </ChartFigure>
  );
}

export { ms, percent };
