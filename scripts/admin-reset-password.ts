/**
 * `npm run admin:reset-password -- correo@ejemplo.com`: prints a one-time
 * link (valid 30 minutes) to choose a new password, for a member who lost
 * access when no e-mail can be sent, including the sole administrator. Works
 * against DATABASE_URL (local, or Neon's), or the embedded database of
 * `npm start` when it is not running. Using the link ends every session of
 * the member; the request is in the activity log. `--quitar-llaves` also
 * removes the member's passkeys (an administrator who lost the only one while
 * the team requires them signs in with the new password and adds another).
 */
import { z } from 'zod';

const args = process.argv.slice(2);
const removePasskeys = args.includes('--quitar-llaves');
const email = z.email().safeParse(
  args
    .find((arg) => !arg.startsWith('--'))
    ?.trim()
    .toLowerCase(),
);
if (!email.success || args.some((arg) => arg.startsWith('--') && arg !== '--quitar-llaves')) {
  console.error('Uso: npm run admin:reset-password -- correo@ejemplo.com [--quitar-llaves]');
  process.exit(2);
}

const { getConfig, publicSiteUrl } = await import('../src/server/config.ts');
const { startEmbeddedPostgres } = await import('../src/server/db/embedded.ts');
const { dataDirectory } = await import('../src/server/local/paths.ts');
const { closeDatabase, withDatabase } = await import('../src/server/db/database.ts');
const { createReset } = await import('../src/server/team/resets.ts');

const config = getConfig();
const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: dataDirectory(config) });
let code = 0;
try {
  const reset = await withDatabase(
    (db) => createReset(db, email.data, { via: 'command', removePasskeys }),
    embedded ? { ...config, databaseUrl: embedded.url, databaseDriver: 'pg' } : config,
  );
  if (reset) {
    const base = publicSiteUrl(config);
    console.log(`Enlace para ${email.data} (vale 30 minutos, una sola vez):\n${base}/auth/restablecer#${reset.token}`);
    if (removePasskeys)
      console.log('Se quitaron sus llaves de acceso: podrá entrar con la contraseña nueva y agregar otra.');
  } else {
    console.error(`No hay ningún miembro activo con el correo ${email.data}.`);
    code = 1;
  }
} catch (error) {
  console.error(`No se pudo crear el enlace: ${(error as Error).message}`);
  code = 1;
} finally {
  await closeDatabase();
  await embedded?.stop();
}
process.exit(code);
