// Placeholder until the console issue: the supervisor console signs in against the server's GraphQL API.
export default function Home() {
  return (
    <main style={{ padding: '2rem' }}>
      <h1>Vigil console</h1>
      <p>The supervisor console arrives with the device registry. The API is served by the Vigil server.</p>
    </main>
  );
}
