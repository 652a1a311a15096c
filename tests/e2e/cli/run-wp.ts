import { execFile } from 'child_process';
import { wpCliPhar } from '../../../scripts/lib/builds';
import { readState } from '../support/environment';

export interface WpResult {
	status: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs WP-CLI (the phar of ../shared/builds) on the e2e site's WordPress, as its administrator
 * unless the arguments give another --user. Asynchronous, as run-cli.ts explains; stdin is
 * closed, so a prompt finds no terminal.
 */
export function wp( ...args: string[] ): Promise< WpResult > {
	const { wordpressDir, admin } = readState();
	const user = args.some( ( arg ) => arg.startsWith( '--user=' ) || arg === '--no-user' );
	const rest = args.filter( ( arg ) => arg !== '--no-user' );
	return new Promise( ( resolve ) => {
		const child = execFile(
			'php',
			[
				wpCliPhar(),
				`--path=${ wordpressDir }`,
				'--allow-root',
				...( user ? [] : [ `--user=${ admin.username }` ] ),
				...rest,
			],
			{ encoding: 'utf8', timeout: 60_000 },
			( error, stdout, stderr ) => {
				const code = error ? ( error as NodeJS.ErrnoException & { code?: unknown } ).code : 0;
				resolve( { status: typeof code === 'number' ? code : null, stdout, stderr } );
			}
		);
		child.stdin?.end();
	} );
}
