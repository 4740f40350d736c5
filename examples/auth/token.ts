// Mints a token for the notes example: `AUTH_SECRET=... npx tsx examples/auth/token.ts alice [hours]`.
import { SignJWT } from "jose";

const [user, hours = "12"] = process.argv.slice(2);
const secret = process.env.AUTH_SECRET;
if (!user || !secret) {
  console.error("usage: AUTH_SECRET=<32+ characters> npx tsx examples/auth/token.ts <user> [hours]");
  process.exit(2);
}
void new SignJWT({ name: user })
  .setProtectedHeader({ alg: "HS256" })
  .setSubject(user)
  .setIssuedAt()
  .setExpirationTime(`${Number(hours)}h`)
  .sign(new TextEncoder().encode(secret))
  .then((token) => console.log(token));
