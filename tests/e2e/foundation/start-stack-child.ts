/**
 * Helper process for failed-start.test.ts (not a test): starts a stack from the JSON options
 * in argv[2] the way `npm start` does, so the test can kill this process half-way and see
 * what `npm stop` finds afterwards.
 */
import { startStack, type StackOptions } from '../../../scripts/lib/stack';

const options = JSON.parse( process.argv[ 2 ] as string ) as StackOptions;
startStack( options ).then(
	() => process.stdout.write( 'started\n' ),
	( error: Error ) => {
		process.stderr.write( `${ error.message }\n` );
		process.exit( 1 );
	}
);
