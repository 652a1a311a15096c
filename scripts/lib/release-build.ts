import { execFile, execFileSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import { builtinModules } from 'module';
import path from 'path';
import AdmZip from 'adm-zip';
import { PLUGIN_SLUG, SIDECAR_PACKAGE } from './release-names';

/**
 * The steps of `npm run release`, each on a given source root so the upgrade test can build
 * an earlier commit's artifacts (a `git archive` with this tree's node_modules linked in) the
 * same way. Nothing here installs packages: the build reuses the tree's node_modules.
 */

export { PLUGIN_SLUG, SIDECAR_PACKAGE };

/** Plugin folder entries shipped as they are; `build/` is made fresh; the rest is refused. */
const PLUGIN_SHIPPED = [ 'service-integration.php', 'uninstall.php', 'readme.txt', 'includes', 'languages' ];
const PLUGIN_NOT_SHIPPED: Record< string, string > = {
	admin: "the admin page's TypeScript source (readme.txt says where it lives)",
	build: 'rebuilt for the release instead of whatever is in the tree',
};

export interface RunResult {
	stdout: string;
	stderr: string;
}

/** Runs a command to completion; a failure carries its output. */
export function run(
	command: string,
	args: string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv }
): Promise< RunResult > {
	return new Promise( ( resolve, reject ) => {
		execFile(
			command,
			args,
			{ cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
			( error, stdout, stderr ) => {
				if ( error ) {
					reject(
						new Error(
							`${ command } ${ args.join( ' ' ) } failed (${ error.message.split( '\n' )[ 0 ] }):\n${ stdout }${ stderr }`
						)
					);
				} else {
					resolve( { stdout, stderr } );
				}
			}
		);
	} );
}

function bin( root: string, name: string ): string {
	const file = path.join( root, 'node_modules', '.bin', name );
	if ( ! fs.existsSync( file ) ) {
		throw new Error( `${ file } is missing: run npm ci first (the release reuses the installed tools)` );
	}
	return file;
}

/** The admin page's production build (wp-scripts: index.js, index.asset.php, CSS) into outDir. */
export async function buildAdmin( root: string, outDir: string ): Promise< void > {
	fs.rmSync( outDir, { recursive: true, force: true } );
	await run(
		bin( root, 'wp-scripts' ),
		[ 'build', 'plugin/admin/src/index.tsx', `--output-path=${ outDir }`, '--stats=errors-warnings' ],
		{
			cwd: root,
			env: { ...process.env, NODE_ENV: 'production' },
		}
	);
	for ( const file of [ 'index.js', 'index.asset.php' ] ) {
		if ( ! fs.existsSync( path.join( outDir, file ) ) ) {
			throw new Error( `the admin build made no ${ file } in ${ outDir }` );
		}
	}
}

/** The sidecar's JavaScript (type-checked; no source maps: the TypeScript is not shipped) into outDir. */
export async function buildSidecar( root: string, outDir: string ): Promise< void > {
	fs.rmSync( outDir, { recursive: true, force: true } );
	await run(
		bin( root, 'tsc' ),
		[ '-p', 'sidecar/tsconfig.build.json', '--outDir', outDir, '--sourceMap', 'false' ],
		{ cwd: root }
	);
}

function copyTree( from: string, to: string ): void {
	const stat = fs.statSync( from );
	if ( stat.isDirectory() ) {
		fs.mkdirSync( to, { recursive: true } );
		for ( const entry of fs.readdirSync( from ) ) {
			if ( entry === 'node_modules' ) {
				throw new Error(
					`${ path.join( from, entry ) }: node_modules inside the plugin is not shipped; remove it`
				);
			}
			if ( ! entry.startsWith( '.' ) ) {
				copyTree( path.join( from, entry ), path.join( to, entry ) );
			}
		}
	} else {
		fs.copyFileSync( from, to );
	}
}

/**
 * The plugin folder as it ships: the listed files and folders, plus the fresh build. A new
 * top-level entry in plugin/ stops the release until it is listed as shipped or not.
 * `requireReadme: false` is for commits before readme.txt existed (the upgrade test).
 */
export function stagePlugin(
	root: string,
	builtAdmin: string,
	stageDir: string,
	options: { requireReadme?: boolean } = {}
): void {
	const pluginDir = path.join( root, 'plugin' );
	const unknown = fs
		.readdirSync( pluginDir )
		.filter(
			( entry ) =>
				! entry.startsWith( '.' ) && ! PLUGIN_SHIPPED.includes( entry ) && ! ( entry in PLUGIN_NOT_SHIPPED )
		);
	if ( unknown.length ) {
		throw new Error(
			`plugin/ has ${ unknown.join( ', ' ) }, which the release neither ships nor leaves out: list it in scripts/lib/release-build.ts`
		);
	}
	fs.rmSync( stageDir, { recursive: true, force: true } );
	fs.mkdirSync( stageDir, { recursive: true } );
	for ( const entry of PLUGIN_SHIPPED ) {
		const from = path.join( pluginDir, entry );
		if ( ! fs.existsSync( from ) ) {
			if ( entry === 'readme.txt' && options.requireReadme === false ) {
				continue;
			}
			throw new Error( `plugin/${ entry } is missing` );
		}
		copyTree( from, path.join( stageDir, entry ) );
	}
	copyTree( builtAdmin, path.join( stageDir, 'build' ) );
}

/** The time stamped on every zip entry: SOURCE_DATE_EPOCH, else the commit's time, so a rebuild of one commit gives the same zip. */
export function sourceDate( root: string ): Date {
	if ( process.env.SOURCE_DATE_EPOCH ) {
		return new Date( Number( process.env.SOURCE_DATE_EPOCH ) * 1000 );
	}
	try {
		return new Date(
			Number(
				execFileSync( 'git', [ 'log', '-1', '--format=%ct' ], {
					cwd: root,
					encoding: 'utf8',
					stdio: [ 'ignore', 'pipe', 'ignore' ],
				} ).trim()
			) * 1000
		);
	} catch {
		return new Date( '2020-01-01T00:00:00Z' );
	}
}

function listFiles( dir: string, prefix = '' ): string[] {
	return fs
		.readdirSync( dir, { withFileTypes: true } )
		.sort( ( a, b ) => a.name.localeCompare( b.name ) )
		.flatMap( ( entry ) =>
			entry.isDirectory()
				? [
						`${ prefix }${ entry.name }/`,
						...listFiles( path.join( dir, entry.name ), `${ prefix }${ entry.name }/` ),
					]
				: [ prefix + entry.name ]
		);
}

/** Zips stageDir as <top>/..., what wp-admin's "Upload Plugin" expects (one top folder, the slug). */
export function zipPlugin( stageDir: string, top: string, outFile: string, date: Date ): void {
	const zip = new AdmZip();
	for ( const relative of [ '', ...listFiles( stageDir ) ] ) {
		const isDir = relative === '' || relative.endsWith( '/' );
		const name = `${ top }/${ relative }`;
		const entry = zip.addFile(
			name,
			isDir ? Buffer.alloc( 0 ) : fs.readFileSync( path.join( stageDir, relative ) ),
			'',
			( isDir ? 0o40755 : 0o100644 ) << 16
		);
		entry.header.time = date;
	}
	fs.mkdirSync( path.dirname( outFile ), { recursive: true } );
	zip.writeZip( outFile );
	fs.chmodSync( outFile, 0o644 ); // adm-zip writes 0666 whatever the umask
}

/** Packages the compiled JS requires (by require("name")), excluding Node's own modules. */
export function requiredPackages( distDir: string ): string[] {
	const found = new Set< string >();
	for ( const file of listFiles( distDir ).filter( ( f ) => f.endsWith( '.js' ) ) ) {
		for ( const match of fs
			.readFileSync( path.join( distDir, file ), 'utf8' )
			.matchAll( /require\("([^"]+)"\)/g ) ) {
			const spec = match[ 1 ] as string;
			if (
				spec.startsWith( '.' ) ||
				spec.startsWith( 'node:' ) ||
				builtinModules.includes( spec.split( '/' )[ 0 ] as string )
			) {
				continue;
			}
			found.add(
				spec.startsWith( '@' )
					? spec.split( '/' ).slice( 0, 2 ).join( '/' )
					: ( spec.split( '/' )[ 0 ] as string )
			);
		}
	}
	return [ ...found ].sort();
}

export interface SidecarStageOptions {
	root: string;
	version: string;
	/** Compiled JS (buildSidecar's outDir). */
	compiled: string;
	stageDir: string;
	/**
	 * For the upgrade test's earlier commits, which predate cli.ts, the unit and the package
	 * README: the package a release of that commit would have been, its bin a two-line wrapper
	 * running dist/main.js (that commit's `npm run sidecar` entry), no packaging/.
	 */
	legacy?: boolean;
}

/**
 * The npm package of the sidecar alone: compiled JS, the systemd unit, a README, a
 * package.json whose dependencies are exactly the runtime packages the JS requires (at the
 * repository's ranges; a required package that is only a devDependency stops the release),
 * and an npm-shrinkwrap.json pinning the versions the repository's lock tested, which
 * `npm install -g` honours.
 */
export async function stageSidecar(
	options: SidecarStageOptions
): Promise< { dependencies: Record< string, string > } > {
	const { root, stageDir } = options;
	const rootPkg = JSON.parse( fs.readFileSync( path.join( root, 'package.json' ), 'utf8' ) ) as {
		license?: string;
		engines?: Record< string, string >;
		dependencies?: Record< string, string >;
	};
	// The one Node version (tests/unit/node-version-docs.test.ts), never a default of its own.
	const node = rootPkg.engines?.node;
	if ( ! node ) {
		throw new Error(
			"package.json has no engines.node: the sidecar's package would not say which Node.js it needs"
		);
	}
	fs.rmSync( stageDir, { recursive: true, force: true } );
	fs.mkdirSync( stageDir, { recursive: true } );
	copyTree( options.compiled, path.join( stageDir, 'dist' ) );

	const dependencies: Record< string, string > = {};
	for ( const name of requiredPackages( path.join( stageDir, 'dist' ) ) ) {
		const range = rootPkg.dependencies?.[ name ];
		if ( ! range ) {
			throw new Error(
				`the sidecar's JavaScript requires "${ name }", which is not in package.json's dependencies: it would be missing once installed`
			);
		}
		dependencies[ name ] = range;
	}
	const pkg: Record< string, unknown > = {
		name: SIDECAR_PACKAGE,
		version: options.version,
		description:
			'The Service Integration sidecar: signed outbound and inbound webhooks for the Service Integration WordPress plugin.',
		license: rootPkg.license ?? 'GPL-2.0-or-later',
		keywords: [ 'wordpress', 'woocommerce', 'webhooks', 'standard-webhooks', 'sidecar' ],
		bin: { [ SIDECAR_PACKAGE ]: options.legacy ? 'dist/legacy-bin.js' : 'dist/cli.js' },
		files: options.legacy ? [ 'dist', 'npm-shrinkwrap.json' ] : [ 'dist', 'packaging', 'npm-shrinkwrap.json' ],
		engines: { node },
		dependencies,
	};
	fs.writeFileSync( path.join( stageDir, 'package.json' ), JSON.stringify( pkg, null, 2 ) + '\n' );
	if ( options.legacy ) {
		fs.writeFileSync(
			path.join( stageDir, 'dist', 'legacy-bin.js' ),
			"#!/usr/bin/env node\nrequire( './main.js' );\n"
		);
	} else {
		copyTree( path.join( root, 'sidecar', 'packaging' ), path.join( stageDir, 'packaging' ) );
		fs.renameSync( path.join( stageDir, 'packaging', 'README.md' ), path.join( stageDir, 'README.md' ) );
		const cli = fs.readFileSync( path.join( stageDir, 'dist', 'cli.js' ), 'utf8' );
		if ( ! cli.startsWith( '#!/usr/bin/env node\n' ) ) {
			throw new Error( 'dist/cli.js does not start with #!/usr/bin/env node: the bin would not run' );
		}
	}

	// The repository's lock, pruned to these dependencies without touching the network for
	// versions: npm keeps what the lock holds and drops the rest.
	fs.copyFileSync( path.join( root, 'package-lock.json' ), path.join( stageDir, 'package-lock.json' ) );
	await run(
		'npm',
		[
			'install',
			'--package-lock-only',
			'--omit=dev',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--prefer-offline',
		],
		{ cwd: stageDir }
	);
	fs.renameSync( path.join( stageDir, 'package-lock.json' ), path.join( stageDir, 'npm-shrinkwrap.json' ) );
	const shrinkwrap = JSON.parse( fs.readFileSync( path.join( stageDir, 'npm-shrinkwrap.json' ), 'utf8' ) ) as {
		packages: Record< string, { version?: string; dev?: boolean } >;
	};
	const rootLock = JSON.parse( fs.readFileSync( path.join( root, 'package-lock.json' ), 'utf8' ) ) as {
		packages: Record< string, { version?: string } >;
	};
	for ( const name of Object.keys( dependencies ) ) {
		const shipped = shrinkwrap.packages[ `node_modules/${ name }` ]?.version;
		const tested = rootLock.packages[ `node_modules/${ name }` ]?.version;
		if ( shipped !== tested ) {
			throw new Error(
				`npm-shrinkwrap.json pins ${ name } ${ shipped }, the repository's lock tested ${ tested }`
			);
		}
	}
	return { dependencies };
}

/** `npm pack` of the staged folder into outDir; returns the tarball's path. */
export async function packSidecar( stageDir: string, outDir: string ): Promise< string > {
	fs.mkdirSync( outDir, { recursive: true } );
	const { stdout } = await run( 'npm', [ 'pack', '--json', '--pack-destination', outDir ], { cwd: stageDir } );
	const [ result ] = JSON.parse( stdout ) as Array< { filename: string } >;
	if ( ! result ) {
		throw new Error( `npm pack printed no result:\n${ stdout }` );
	}
	return path.join( outDir, result.filename );
}

export function sha256( file: string ): string {
	return crypto.createHash( 'sha256' ).update( fs.readFileSync( file ) ).digest( 'hex' );
}

/** SHA256SUMS in sha256sum's format, so `sha256sum -c SHA256SUMS` checks the folder. */
export function writeChecksums( files: string[], outFile: string ): string {
	const text = files.map( ( file ) => `${ sha256( file ) }  ${ path.basename( file ) }\n` ).join( '' );
	fs.writeFileSync( outFile, text );
	return text;
}
