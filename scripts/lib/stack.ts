import path from 'path';
import type { ChildProcess } from 'child_process';
import { environmentDir } from './paths';
import { ensureSharedKey } from './shared-key';
import { spawnSidecar, waitForSidecar } from './sidecar-process';
import { siteUrl, startWordPress, waitForWordPress, type Runtime, type WordPressEnvironment } from './wp-env';
import { step, timed } from './progress';

/** One running product: WordPress (wp-env) plus its sidecar, as npm start and the e2e suite use it. */
export interface StackOptions {
	name: string;
	runtime: Runtime;
	wpPort: number;
	sidecarPort: number;
	woocommerceDir?: string;
	extraPlugins?: Record< string, string >;
	freshSite?: boolean;
	sidecarLogFile?: string;
	sidecarEnv?: NodeJS.ProcessEnv;
}

export interface Stack {
	env: WordPressEnvironment;
	siteUrl: string;
	sidecarUrl: string;
	sharedKey: string;
	sharedKeyFile: string;
	sidecarDataDir: string;
	sidecar: ChildProcess;
}

export function describeStack( options: StackOptions ): Omit< Stack, 'sidecar' > {
	const dir = environmentDir( options.name );
	const sharedKeyFile = path.join( dir, 'shared-key' );
	const sharedKey = ensureSharedKey( sharedKeyFile );
	const sidecarUrl = `http://127.0.0.1:${ options.sidecarPort }`;
	const env: WordPressEnvironment = {
		name: options.name,
		runtime: options.runtime,
		port: options.wpPort,
		sidecarUrl,
		sharedKey,
		woocommerceDir: options.woocommerceDir,
		extraPlugins: options.extraPlugins,
		freshSite: options.freshSite,
	};
	return { env, siteUrl: siteUrl( env ), sidecarUrl, sharedKey, sharedKeyFile, sidecarDataDir: path.join( dir, 'sidecar-data' ) };
}

export async function startStack( options: StackOptions ): Promise< Stack > {
	const described = describeStack( options );
	const sidecar = await startStackSidecar( options, described );

	step( `Starting WordPress (${ options.runtime } runtime) on ${ described.siteUrl }; the first start unpacks WordPress core` );
	await timed( 'wp-env started', () => startWordPress( described.env ) );
	await timed( 'WordPress answers /wp-json/ with the plugin active', () => waitForWordPress( described.env ) );

	return { ...described, sidecar };
}

/** Starts the sidecar of a described stack (told the site's URL) and waits until it answers. */
export async function startStackSidecar( options: StackOptions, described: Omit< Stack, 'sidecar' > ): Promise< ChildProcess > {
	step( `Starting the sidecar on ${ described.sidecarUrl }` );
	const sidecar = spawnSidecar( {
		port: options.sidecarPort,
		dataDir: described.sidecarDataDir,
		sharedKeyFile: described.sharedKeyFile,
		logFile: options.sidecarLogFile,
		extraEnv: { SIDECAR_WORDPRESS_URL: described.siteUrl, ...options.sidecarEnv },
	} );
	await timed( 'sidecar answers /health', () => waitForSidecar( described.sidecarUrl, sidecar ) );
	return sidecar;
}
