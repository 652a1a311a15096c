import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { launchSidecar } from './support/spawned';

/** A sidecar whose port another process holds: it says so and exits, and never claims to listen. */
describe( 'a sidecar started on a port in use', () => {
	let dir: string;
	let holder: net.Server;

	beforeEach( async () => {
		dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-listen-' ) );
		holder = net.createServer();
		await new Promise< void >( ( resolve ) => holder.listen( 0, '127.0.0.1', resolve ) );
	} );

	afterEach( async () => {
		await new Promise< void >( ( resolve ) => holder.close( () => resolve() ) );
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( 'exits with code 1, naming the port, without logging "sidecar listening" first', async () => {
		const { port } = holder.address() as net.AddressInfo;
		const logFile = path.join( dir, 'sidecar.log' );
		const { exited } = launchSidecar( { port, logFile, dataDir: path.join( dir, 'data' ) } );
		const { code } = await exited;
		const log = fs.readFileSync( logFile, 'utf8' );
		expect( code ).toBe( 1 );
		expect( log ).toContain( `cannot listen: 127.0.0.1:${ port } is in use by another process` );
		expect( log ).toContain( 'EADDRINUSE' );
		expect( log ).not.toContain( 'sidecar listening' );
	} );
} );
