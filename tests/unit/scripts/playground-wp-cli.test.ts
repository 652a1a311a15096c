import { playgroundWpCliArgs } from '../../../scripts/lib/playground-wp-cli';

describe( "WP-CLI on npm start's Playground site (npm run wp)", () => {
	const site = {
		wordpressDir: '/env/wordpress',
		mappings: {
			'wp-content/plugins/service-integration': '/repo/plugin',
			'wp-content/mu-plugins': '/repo/scripts/wp-env/mu-plugins',
		},
		blueprint: '/env/wp-env-home/abc/playground-blueprint.json',
		siteUrl: 'http://localhost:8888',
		phpVersion: '8.2',
	};
	const args = playgroundWpCliArgs( site, '/builds/wp-cli-2.10.0.phar', [ 'plugin', 'list', '--user=admin' ] );

	it( "runs Playground's php command on the site's files, with its server's mounts and constants, installing nothing", () => {
		expect( args[ 0 ] ).toMatch( /node_modules\/@wp-playground\/cli\/wp-playground\.js$/ );
		expect( args[ 1 ] ).toBe( 'php' );
		const joined = args.join( ' ' );
		expect( joined ).toContain( '--mount-dir-before-install /env/wordpress /wordpress' );
		expect( joined ).toContain( '--mount-dir /repo/plugin /wordpress/wp-content/plugins/service-integration' );
		expect( joined ).toContain( '--mount-dir /repo/scripts/wp-env/mu-plugins /wordpress/wp-content/mu-plugins' );
		expect( joined ).toContain( `--blueprint ${ site.blueprint }` );
		expect( joined ).toContain( '--site-url http://localhost:8888' );
		expect( joined ).toContain( '--wordpress-install-mode do-not-attempt-installing' );
	} );

	it( "hands every other argument to the phar, after the `--` that ends Playground's options", () => {
		const end = args.indexOf( '--' );
		expect( args.slice( end + 1 ) ).toEqual( [
			'/internal/wp-cli/wp-cli-2.10.0.phar',
			'--path=/wordpress',
			'plugin',
			'list',
			'--user=admin',
		] );
		expect( args.slice( 0, end ).join( ' ' ) ).toContain( '--mount-dir /builds /internal/wp-cli' );
	} );
} );
