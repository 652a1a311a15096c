import { Writable } from 'stream';
import { createLogger } from '../../../sidecar/src/logger';

function capture() {
	const lines: string[] = [];
	const log = createLogger(
		'debug',
		new Writable( {
			write( chunk: Buffer, _encoding, callback ) {
				lines.push( chunk.toString( 'utf8' ) );
				callback();
			},
		} )
	);
	return { log, text: () => lines.join( '' ) };
}

describe( 'the sidecar logger', () => {
	it( 'keeps the statement of a database error out of the log: mysql2 puts it there with its values, secrets included', () => {
		const { log, text } = capture();
		const error = Object.assign( new Error( 'Lock wait timeout exceeded; try restarting transaction' ), {
			code: 'ER_LOCK_WAIT_TIMEOUT',
			sqlMessage: 'Lock wait timeout exceeded; try restarting transaction',
			sql: "INSERT INTO inbound_source_secrets (source_id, secret) VALUES ('acme', 'whsec_TOPSECRET')",
		} );
		log.warn( { err: error, method: 'POST' }, 'the shared store does not answer: 503' );
		log.error( { err: error }, 'unhandled error' );
		const written = text();
		expect( written ).not.toContain( 'TOPSECRET' );
		// What says what went wrong stays.
		expect( written.match( /ER_LOCK_WAIT_TIMEOUT/g ) ).toHaveLength( 2 );
		expect( written ).toContain( 'Lock wait timeout exceeded' );
	} );

	it( 'redacts secrets by path', () => {
		const { log, text } = capture();
		log.info(
			{ secret: 'one-TOPSECRET', endpoint: { secrets: [ 'two-TOPSECRET' ] }, sharedKey: 'TOPSECRET' },
			'x'
		);
		expect( text() ).not.toContain( 'TOPSECRET' );
		expect( text() ).toContain( '[redacted]' );
	} );
} );
