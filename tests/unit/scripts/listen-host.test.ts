import { spawnSync } from 'child_process';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { portsInUse } from '../../../scripts/lib/ports';
import { lastFatal } from '../../../scripts/lib/stack';
import { DEFAULT_WORDPRESS_HOST, LISTEN_HOST_PRELOAD, listenHostEnvironment } from '../../../scripts/lib/wp-env';

/** Runs a script under the given file name that listens as Playground's server does (a port, no address), and returns the address it got. */
function addressOf( fileName: string, env: NodeJS.ProcessEnv ): string {
	const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'listen-host-' ) );
	try {
		const script = path.join( dir, fileName );
		fs.writeFileSync(
			script,
			"const s = require('http').createServer(); s.listen(0, () => { console.log(s.address().address); s.close(); });\n"
		);
		const run = spawnSync( process.execPath, [ script ], {
			env: { PATH: process.env.PATH, ...env },
			encoding: 'utf8',
		} );
		expect( run.stderr ).toBe( '' );
		return run.stdout.trim();
	} finally {
		fs.rmSync( dir, { recursive: true, force: true } );
	}
}

describe( "the address npm start's WordPress (Playground's server) listens on", () => {
	it( 'is 127.0.0.1 by default, though the server gives listen() no address', () => {
		expect( DEFAULT_WORDPRESS_HOST ).toBe( '127.0.0.1' );
		expect( addressOf( 'wp-playground.js', listenHostEnvironment( DEFAULT_WORDPRESS_HOST, {} ) ) ).toBe(
			'127.0.0.1'
		);
	} );

	it( 'is the one --host gives', () => {
		expect( addressOf( 'wp-playground.js', listenHostEnvironment( '0.0.0.0', {} ) ) ).toBe( '0.0.0.0' );
	} );

	it( "is left alone in any other process (wp-env's own)", () => {
		expect( addressOf( 'wp-env.js', listenHostEnvironment( DEFAULT_WORDPRESS_HOST, {} ) ) ).not.toBe( '127.0.0.1' );
	} );

	it( 'comes with NODE_OPTIONS of the shell kept', () => {
		expect( listenHostEnvironment( '127.0.0.1', { NODE_OPTIONS: '--max-old-space-size=512' } ) ).toEqual( {
			SERVICE_INTEGRATION_WORDPRESS_HOST: '127.0.0.1',
			NODE_OPTIONS: `--max-old-space-size=512 --require ${ JSON.stringify( LISTEN_HOST_PRELOAD ) }`,
		} );
	} );
} );

describe( 'a port npm start needs that another process holds', () => {
	it( 'is named before anything starts, with the option that changes it', async () => {
		const holder = net.createServer();
		await new Promise< void >( ( resolve ) => holder.listen( 0, '127.0.0.1', resolve ) );
		const { port } = holder.address() as net.AddressInfo;
		try {
			const message = await portsInUse(
				[ { port, host: '127.0.0.1', what: 'the sidecar', option: '--sidecar-port' } ],
				'npm start -- --env=<name> --port=<port> --sidecar-port=<port>'
			);
			expect( message ).toContain( `port ${ port } (the sidecar, on 127.0.0.1) is in use by another process` );
			expect( message ).toContain( '--sidecar-port=<port>' );
			expect( message ).toContain( 'npm start -- --env=<name>' );
		} finally {
			await new Promise< void >( ( resolve ) => holder.close( () => resolve() ) );
		}
		expect(
			await portsInUse( [ { port, host: '127.0.0.1', what: 'WordPress', option: '--port' } ], '' )
		).toBeUndefined();
	} );
} );

describe( 'a sidecar that exits before it answers', () => {
	it( "is explained by its log's last fatal line", () => {
		const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-log-' ) );
		const log = path.join( dir, 'sidecar.log' );
		fs.writeFileSync(
			log,
			[
				JSON.stringify( { level: 30, msg: 'stopped' } ),
				JSON.stringify( {
					level: 60,
					msg: 'cannot listen: 127.0.0.1:8787 is in use by another process (SIDECAR_PORT chooses another port)',
				} ),
				'    at Server.setupListenHandle (node:net:1908:16)',
			].join( '\n' ) + '\n'
		);
		try {
			expect( lastFatal( log ) ).toBe(
				'cannot listen: 127.0.0.1:8787 is in use by another process (SIDECAR_PORT chooses another port)'
			);
			expect( lastFatal( path.join( dir, 'none.log' ) ) ).toBeUndefined();
		} finally {
			fs.rmSync( dir, { recursive: true, force: true } );
		}
	} );
} );
