import Link from "next/link";

export default function Home() {
  return (
    <main className="home">
      <h1>Partner Integration Service</h1>
      <ul>
        <li>
          <Link href="/api/docs">Partner API reference</Link> (<a href="/api/openapi.json">OpenAPI document</a>)
        </li>
        <li>
          <Link href="/console">Operator console</Link>
        </li>
        <li>
          <a href="/healthz">Health</a>
        </li>
      </ul>
    </main>
  );
}
