import { runCli } from './cli';

/**
 * The development entry (`npm run sidecar`, `npm start`, the tests): `start` with the
 * arguments given (--config, --help, --version), configured by the environment and an
 * explicit config file only, never by a config.json that `init` may have written in this
 * user's standard place. The installed command is cli.ts (`service-integration-sidecar`).
 */
const code = runCli( [ 'start', ...process.argv.slice( 2 ) ], process.env, {
	standardConfigFile: false,
	name: 'sidecar',
} );
if ( code !== null ) {
	process.exitCode = code;
}
