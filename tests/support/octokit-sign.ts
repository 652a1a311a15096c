/**
 * GitHub signatures made by GitHub's own library, @octokit/webhooks-methods. It is
 * ESM-only (its exports have no "require" condition), and jest's CommonJS runtime can
 * neither require it nor import() it without --experimental-vm-modules; so a child
 * Node process imports the real library and signs. Synchronous, so signers stay plain
 * functions; one process per call (tens of milliseconds).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const SCRIPT = [
	"import { sign } from '@octokit/webhooks-methods';",
	'const pairs = JSON.parse(process.argv[1]);',
	'const out = []; for (const [secret, payload] of pairs) out.push(await sign(secret, payload));',
	'process.stdout.write(JSON.stringify(out));',
].join( '' );

/** `sha256=<hex>` for each [secret, payload], in order. */
export function octokitSign( pairs: Array< [ secret: string, payload: string ] > ): string[] {
	const stdout = execFileSync( process.execPath, [ '--input-type=module', '-e', SCRIPT, JSON.stringify( pairs ) ], {
		cwd: resolve( __dirname, '../..' ),
		encoding: 'utf8',
	} );
	const signatures = JSON.parse( stdout ) as unknown;
	if (
		! Array.isArray( signatures ) ||
		signatures.length !== pairs.length ||
		! signatures.every( ( s ) => typeof s === 'string' )
	) {
		throw new Error( `@octokit/webhooks-methods answered ${ stdout }` );
	}
	return signatures as string[];
}
