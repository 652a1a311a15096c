/**
 * A site of `npm start` belongs to the WordPress core it was copied from: started with another
 * core (WORDPRESS_VERSION, WORDPRESS_DIR), it is not mixed with it. The site is kept instead,
 * with what belongs to it (its sidecar's data: endpoints, inbound sources, deliveries; the admin
 * application password only it knows), in a folder of its own that nothing overwrites; a site
 * kept earlier for the core now asked for comes back. Light: fs only.
 */
import fs from 'fs';
import path from 'path';
import { shown } from './dev-environment';
import { adminPasswordFile, environmentDir, sidecarDataDir, siteCopyDir } from './paths';

/** Which core tree the environment's site was copied from: {"source": <tree>, "version": <version>}. */
export function siteSourceFile( name: string ): string {
	return path.join( environmentDir( name ), 'wordpress-source.json' );
}

/** What moves with a site: its WordPress copy (with the SQLite database), its sidecar's data, its admin password, its source. */
function siteParts( name: string ): string[] {
	return [ siteCopyDir( name ), sidecarDataDir( name ), adminPasswordFile( name ), siteSourceFile( name ) ];
}

const KEPT_PREFIX = 'kept-site-';

/** The folders holding kept sites of an environment, oldest first. */
export function keptSites( name: string ): string[] {
	const dir = environmentDir( name );
	return fs.existsSync( dir )
		? fs
				.readdirSync( dir )
				.filter( ( entry ) => entry.startsWith( KEPT_PREFIX ) )
				.sort()
				.map( ( entry ) => path.join( dir, entry ) )
		: [];
}

function describeSource( marker: string ): string {
	try {
		const { source, version } = JSON.parse( marker ) as { source: string; version: string };
		return `WordPress ${ version } (${ shown( source ) })`;
	} catch {
		return 'another WordPress';
	}
}

/** A folder name no kept site has yet: the time, and a counter if two switches share a second. */
function newKeptDir( name: string, now: Date ): string {
	const stamp = now
		.toISOString()
		.replace( /\.\d+Z$/, 'Z' )
		.replace( /:/g, '-' );
	let dir = path.join( environmentDir( name ), `${ KEPT_PREFIX }${ stamp }` );
	for ( let n = 2; fs.existsSync( dir ); n++ ) {
		dir = path.join( environmentDir( name ), `${ KEPT_PREFIX }${ stamp }-${ n }` );
	}
	return dir;
}

/**
 * Before the sidecar and WordPress start: when the environment's site was copied from another
 * core than `wanted` (siteSourceFile's form), keeps it with its sidecar's data and brings back
 * the newest site kept for `wanted`, if any. Returns the line to print, or undefined when the
 * site stays (same core, or no site yet).
 */
export function switchSite( name: string, wanted: string, now = new Date() ): string | undefined {
	const marker = siteSourceFile( name );
	if ( ! fs.existsSync( siteCopyDir( name ) ) || ! fs.existsSync( marker ) ) {
		return undefined;
	}
	const current = fs.readFileSync( marker, 'utf8' );
	if ( current === wanted ) {
		return undefined;
	}
	const back = keptSites( name )
		.filter( ( dir ) => {
			try {
				return fs.readFileSync( path.join( dir, path.basename( marker ) ), 'utf8' ) === wanted;
			} catch {
				return false;
			}
		} )
		.pop();
	const kept = newKeptDir( name, now );
	fs.mkdirSync( kept, { recursive: true } );
	for ( const part of siteParts( name ) ) {
		if ( fs.existsSync( part ) ) {
			fs.renameSync( part, path.join( kept, path.basename( part ) ) );
		}
	}
	if ( back ) {
		for ( const part of siteParts( name ) ) {
			const from = path.join( back, path.basename( part ) );
			if ( fs.existsSync( from ) ) {
				fs.renameSync( from, part );
			}
		}
		fs.rmSync( back, { recursive: true, force: true } );
	}
	return (
		`the ${ describeSource( current ) } site is kept with its sidecar's data in ${ shown( kept ) }; ` +
		( back
			? `the ${ describeSource( wanted ) } site kept in ${ shown( back ) } is back, with its sidecar's data`
			: `a new ${ describeSource( wanted ) } site starts, with an empty sidecar` )
	);
}
