import fs from 'fs';

/** What a growing file (a log) holds past byte `offset`; empty when it is missing or no longer. */
export function readFileFrom( file: string, offset: number ): string {
	if ( ! fs.existsSync( file ) ) {
		return '';
	}
	const size = fs.statSync( file ).size;
	if ( size <= offset ) {
		return '';
	}
	const buffer = Buffer.alloc( size - offset );
	const fd = fs.openSync( file, 'r' );
	try {
		fs.readSync( fd, buffer, 0, buffer.length, offset );
	} finally {
		fs.closeSync( fd );
	}
	return buffer.toString( 'utf8' );
}
