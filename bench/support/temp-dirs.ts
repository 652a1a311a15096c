import fs from 'fs';
import os from 'os';
import path from 'path';

/** Temporary folders a bench makes for its sidecars' data, all removed at its end. */
export function tempDirs( prefix: string ): { make: () => string; removeAll: () => void } {
	const made: string[] = [];
	return {
		make: () => {
			const dir = fs.mkdtempSync( path.join( os.tmpdir(), prefix ) );
			made.push( dir );
			return dir;
		},
		removeAll: () => {
			for ( const dir of made.splice( 0 ) ) {
				fs.rmSync( dir, { recursive: true, force: true } );
			}
		},
	};
}
