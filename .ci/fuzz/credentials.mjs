// Prints `export NAME=value` lines for .ci/fuzz.sh: the write and client keys and the admin password a first start
// prints (README "Try it"), and an admin API token made with them through POST /api/auth/login and GraphQL's
// createToken. A token, not the session: the fuzzer calls POST /api/auth/logout, which would end a session.
import { readFileSync } from 'node:fs';

const [base, logPath] = process.argv.slice(2);
const banner = readFileSync(logPath, 'utf8');
const after = (label) => banner.match(new RegExp(`${label}[^\\n]*\\n\\s+(\\S+)`))?.[1];
const writeKey = after('Write key');
const clientKey = after('Client key');
const password = banner.match(/password: (\S+)/)?.[1];
if (!writeKey || !clientKey || !password) throw new Error('the server did not print its first keys and admin password');

const post = async (path, body, token) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
};
const session = await post('/api/auth/login', { username: 'admin', password });
const created = await post('/graphql', { query: 'mutation { createToken(username: "admin", name: "fuzz") { token } }' }, session.token);
const adminToken = created.data?.createToken?.token;
if (!adminToken) throw new Error(`createToken failed: ${JSON.stringify(created.errors)}`);
for (const [name, value] of Object.entries({ VIGIL_FUZZ_WRITE_KEY: writeKey, VIGIL_FUZZ_CLIENT_KEY: clientKey, VIGIL_FUZZ_ADMIN_TOKEN: adminToken })) {
  console.log(`export ${name}=${value}`);
}
