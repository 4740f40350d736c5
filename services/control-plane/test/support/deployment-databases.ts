// A control plane started by a test on a database of its own makes a database on the test server
// for each deployment the local deployer provisions. Dropping the control plane's database alone
// left those behind (about twenty a test run), so a test that started one drops them too.
import pg from "pg";
import { dropDatabase } from "@lgp/server-kit";
import { deploymentDatabaseUrl } from "../../src/deployers/local";

/**
 * Drops the database of every deployment `controlPlaneDatabaseUrl` holds, on the server of
 * `serverUrl` (the control plane's DEPLOYMENTS_DATABASE_URL; by default its own server). A
 * control plane database without its tables (a start that failed early) holds none.
 */
export async function dropDeploymentDatabases(
  controlPlaneDatabaseUrl: string,
  serverUrl = controlPlaneDatabaseUrl,
): Promise<void> {
  const client = new pg.Client({ connectionString: controlPlaneDatabaseUrl });
  await client.connect();
  let ids: string[] = [];
  try {
    const { rows } = await client.query<{ id: string }>("SELECT id::text AS id FROM deployments");
    ids = rows.map((row) => row.id);
  } catch (error) {
    // No deployments table: nothing was deployed.
    if ((error as { code?: string }).code !== "42P01") throw error;
  } finally {
    await client.end();
  }
  for (const id of ids) await dropDatabase(deploymentDatabaseUrl(serverUrl, id));
}
