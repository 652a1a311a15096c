import { execFile } from 'child_process';
import path from 'path';
import { readState } from '../support/environment';

export const CLI_ROOT = path.resolve( __dirname, '..', '..', '..' );
export const CLI_SCRIPT = path.join( CLI_ROOT, 'scripts', 'service-account.ts' );

export interface CliResult {
	status: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs `npm run service-account -- <args>` against the e2e site as its administrator.
 * Asynchronous on purpose: a blocked event loop cannot see the server close an idle
 * keep-alive connection, and the next fetch would reuse the dead socket.
 */
export function cli( ...args: string[] ): Promise< CliResult > {
	const { siteUrl, admin } = readState();
	return new Promise( ( resolve ) => {
		execFile(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				CLI_SCRIPT,
				...args,
				`--site=${ siteUrl }`,
				`--admin-password=${ admin.applicationPassword }`,
			],
			{ cwd: CLI_ROOT, encoding: 'utf8', timeout: 60_000 },
			( error, stdout, stderr ) => {
				const code = error ? ( error as NodeJS.ErrnoException & { code?: unknown } ).code : 0;
				resolve( { status: typeof code === 'number' ? code : null, stdout, stderr } );
			}
		);
	} );
}
