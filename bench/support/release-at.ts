import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { ROOT } from '../../scripts/lib/paths';
import { step, done } from '../../scripts/lib/progress';

/**
 * The release artifacts (plugin zip, sidecar tarball, SHA256SUMS) of one commit, for a
 * benchmark of that commit on the production runtime while the working tree holds someone's
 * unfinished edits: `git archive <commit>` into a folder outside the repository, this tree's
 * node_modules linked in, and that tree's own `npm run release`. Kept per commit, so a second
 * run reuses them. Returns the folder to hand to the production runtime (`releaseDir`).
 */
export function releaseAtCommit( commit: string ): { dir: string; commit: string } {
	const full = execFileSync( 'git', [ 'rev-parse', '--verify', `${ commit }^{commit}` ], {
		cwd: ROOT,
		encoding: 'utf8',
	} ).trim();
	const base = path.join( os.tmpdir(), 'service-integration-bench-release', full.slice( 0, 12 ) );
	const out = path.join( base, 'release' );
	if ( fs.existsSync( path.join( out, 'SHA256SUMS' ) ) ) {
		done( `release of ${ full.slice( 0, 9 ) } already built: ${ out }` );
		return { dir: out, commit: full };
	}
	const tree = path.join( base, 'tree' );
	step(
		`Building the release of commit ${ full.slice( 0, 9 ) } (git archive into ${ tree }, npm run release there)`
	);
	fs.rmSync( base, { recursive: true, force: true } );
	fs.mkdirSync( tree, { recursive: true } );
	execFileSync( 'sh', [ '-c', `git archive --format=tar ${ full } | tar -x -C "${ tree }"` ], { cwd: ROOT } );
	fs.symlinkSync( path.join( ROOT, 'node_modules' ), path.join( tree, 'node_modules' ), 'dir' );
	execFileSync( 'npm', [ 'run', 'release', '--silent', '--', `--out=${ out }` ], {
		cwd: tree,
		stdio: [ 'ignore', 'inherit', 'inherit' ],
	} );
	return { dir: out, commit: full };
}
