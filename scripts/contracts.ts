/**
 * npm run contracts: writes plugin/includes/class-sidecar-contract.php from the sidecar's
 * contract sources, or with --check only says whether it is stale (what the unit test checks).
 */
import fs from 'fs';
import path from 'path';
import { parseFlags } from './lib/cli-args';
import { ROOT } from './lib/paths';
import { done, fail, step } from './lib/progress';
import { SIDECAR_CONTRACT_FILE, sidecarContractPhp } from './lib/sidecar-contract';
import { VIEW_TYPES_FILE, writeViewTypes } from './lib/view-types';

const HELP = `Usage: npm run contracts [-- --check]

Writes ${ path.relative( ROOT, SIDECAR_CONTRACT_FILE ) } from sidecar/src/contracts/: the values
the plugin shares with the sidecar (constants.ts), the fields of the requests WordPress forwards
to it (requests.ts) as the proxy routes' arguments, and the sidecar's answers (views.ts, mapped to
the routes in responses.ts) as their response schemas, through zod's JSON Schema, with
translatable descriptions. Run it after changing one of these files, then npm run i18n if a
description changed.

Also writes ${ path.relative( ROOT, VIEW_TYPES_FILE ) }: the admin page's types of the answers
PHP owns, from the routes' schemas (plugin/includes/Rest/Schemas/, read with php-cli).

Options:
  --check   Change nothing: exit 1 if the file differs from what the sources make.
  --help
`;

function main(): void {
	const flags = parseFlags( process.argv.slice( 2 ), [ 'check', 'help' ] );
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	const file = path.relative( ROOT, SIDECAR_CONTRACT_FILE );
	const wanted = sidecarContractPhp();
	const current = fs.existsSync( SIDECAR_CONTRACT_FILE ) ? fs.readFileSync( SIDECAR_CONTRACT_FILE, 'utf8' ) : '';
	if ( flags.check ) {
		if ( current !== wanted ) {
			fail( `${ file } is stale: run npm run contracts (then npm run i18n if a description changed).` );
		}
		done( `${ file } matches sidecar/src/contracts/` );
		return;
	}
	step( `Writing ${ file } from sidecar/src/contracts/` );
	if ( current === wanted ) {
		done( 'unchanged' );
		return;
	}
	fs.writeFileSync( SIDECAR_CONTRACT_FILE, wanted );
	done( 'written' );
}

try {
	main();
	if ( ! process.argv.includes( '--help' ) ) {
		writeViewTypes( process.argv.includes( '--check' ) );
	}
} catch ( error ) {
	fail( ( error as Error ).message );
}
