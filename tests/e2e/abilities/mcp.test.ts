import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { adminClient } from '../support/clients';
import { commerce, iso, nextSecond } from '../support/commerce';
import { readState } from '../support/environment';
import { listPaid } from '../support/paid-orders';
import { setPluginActive, withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import type { RestError } from '../../../scripts/lib/rest-client';
import {
	ABILITIES,
	CREATE_MANUFACTURING_ORDER,
	GET_MANUFACTURING_ORDER,
	LIST_PAID_ORDERS,
	type AbilityInfo,
} from './abilities';
import {
	ADAPTER_PLUGIN,
	answerText,
	connect,
	DEFAULT_SERVER,
	FOREIGN_PLUGIN,
	FOREIGN_SERVER,
	mcpTranscript,
	PLUGIN_SERVER,
	siteHasAbilitiesApi,
	withClient,
	type McpTransportKind,
	type McpUser,
	type ToolAnswer,
} from './mcp';

const ROUTE = '/wp/v2/commandes-fabrication';
const OWN_TOOLS = [ CREATE_MANUFACTURING_ORDER, GET_MANUFACTURING_ORDER, LIST_PAID_ORDERS ].map( ( name ) =>
	name.replace( '/', '-' )
);
const ADAPTER_TOOLS = [
	'mcp-adapter-discover-abilities',
	'mcp-adapter-execute-ability',
	'mcp-adapter-get-ability-info',
];

interface ManufacturingRecord {
	id: number;
	status: string;
	author: number;
	title: { raw?: string; rendered: string };
	meta: Record< string, unknown >;
}

/** The MCP Adapter runs on WordPress 6.9+ only: older cells skip these tests. */
const describeMcp = siteHasAbilitiesApi() ? describe : describe.skip;

/**
 * The service account and an administrator as AI agents: a real MCP client
 * (@modelcontextprotocol/sdk) on WordPress's MCP Adapter, over STDIO (WP-CLI) and HTTP. The
 * service account reaches the plugin's three abilities as the tools of the plugin's own server and
 * nothing else, through any server, tool or transport, even while another plugin widens its role.
 */
describeMcp( 'the abilities through the MCP Adapter', () => {
	const run = Date.now().toString( 36 );
	let account: ServiceAccount;
	let service: McpUser;
	let admin: McpUser;
	let window: { modified_after: string; modified_before: string };
	let paid: number[];

	beforeAll( async () => {
		// Made here, not while the file is collected: an older cell skips this block (and may have no shop).
		const driver = commerce();
		await setPluginActive( ADAPTER_PLUGIN, true );
		account = await provisionServiceAccount( 'abilities-mcp' );
		service = { username: account.username, password: account.password };
		const state = readState();
		admin = { username: state.admin.username, password: state.admin.applicationPassword };
		const [ lamp ] = await driver.createProducts( [
			{ name: 'Brass lamp', sku: `MCP-LAMP-${ run }`, price: '35.00' },
		] );
		const since = iso( await nextSecond() );
		const ids = await driver.createOrders(
			[ 'processing', 'pending', 'completed' ].map( ( status, i ) => ( {
				status: status as 'processing' | 'pending' | 'completed',
				billing: { first_name: 'Ada', last_name: `Lovelace-${ i }`, email: `ada-${ i }@example.com` },
				line_items: [ { product_id: lamp!.id, quantity: i + 1 } ],
			} ) )
		);
		paid = [ ids[ 0 ]!, ids[ 2 ]! ].sort( ( a, b ) => a - b );
		window = { modified_after: since, modified_before: iso( await nextSecond() ) };
	} );

	afterAll( async () => {
		await setPluginActive( ADAPTER_PLUGIN, false );
	} );

	async function call(
		client: Client,
		who: string,
		kind: McpTransportKind,
		server: string,
		name: string,
		args: Record< string, unknown > = {}
	): Promise< ToolAnswer > {
		const answer = ( await client.callTool( { name, arguments: args } ) ) as ToolAnswer;
		mcpTranscript( who, kind, server, `tools/call ${ name } ${ JSON.stringify( args ) }`, answer );
		return answer;
	}

	describe.each< McpTransportKind >( [ 'stdio', 'http' ] )( 'over %s', ( kind ) => {
		it( 'offers the service account the plugin’s three abilities as tools, annotated as the abilities declare', async () => {
			const described = await account.client.get< AbilityInfo[] >( `${ ABILITIES }?per_page=100` );
			const declared = Object.fromEntries( described.body.map( ( ability ) => [ ability.name, ability ] ) );
			await withClient( kind, PLUGIN_SERVER, service, async ( client ) => {
				const { tools } = await client.listTools();
				mcpTranscript(
					'service account',
					kind,
					PLUGIN_SERVER,
					'tools/list',
					tools.map( ( tool ) => tool.name )
				);
				expect( tools.map( ( tool ) => tool.name ).sort() ).toEqual( [ ...OWN_TOOLS ].sort() );
				for ( const tool of tools ) {
					const ability = declared[ tool.name.replace( 'service-integration-', 'service-integration/' ) ]!;
					expect( ability.meta ).toMatchObject( { mcp: { public: true, type: 'tool' } } );
					expect( tool.annotations?.title ).toBe( ability.label );
					expect( tool.description ).toBe( ability.description );
					expect( tool.annotations ).toMatchObject( {
						readOnlyHint: ability.meta.annotations.readonly,
						destructiveHint: ability.meta.annotations.destructive,
						idempotentHint: ability.meta.annotations.idempotent,
					} );
				}
				const hints = Object.fromEntries(
					tools.map( ( tool ) => [
						tool.name,
						[
							tool.annotations?.readOnlyHint,
							tool.annotations?.destructiveHint,
							tool.annotations?.idempotentHint,
						],
					] )
				);
				expect( hints ).toEqual( {
					'service-integration-list-paid-orders': [ true, false, true ],
					'service-integration-get-manufacturing-order': [ true, false, true ],
					'service-integration-create-manufacturing-order': [ false, false, false ],
				} );
			} );
		} );

		it( 'lists paid orders as the REST route does for the same parameters', async () => {
			const params = { ...window, per_page: 100, orderby: 'id', order: 'asc' };
			const rest = await listPaid( account.client, params );
			expect( rest.body.map( ( order ) => order.id ) ).toEqual( paid );
			await withClient( kind, PLUGIN_SERVER, service, async ( client ) => {
				const answer = await call( client, 'service account', kind, PLUGIN_SERVER, OWN_TOOLS[ 2 ]!, params );
				expect( answer.isError ).toBeFalsy();
				expect( answer.structuredContent ).toEqual( {
					orders: rest.body,
					total: paid.length,
					total_pages: 1,
					next: null,
					paid_before: null,
				} );
				expect( JSON.parse( answerText( answer ) ) ).toEqual( answer.structuredContent );
			} );
		} );

		it( 'creates a manufacturing order once for an idempotency key, and reads it back', async () => {
			const title = `MCP ${ kind } ${ run }: three brass lamps`;
			const input = {
				title,
				status: 'publish',
				meta: { source_order_id: paid[ 0 ], priority: 'high', due_date: '2026-12-20' },
				idempotency_key: `mcp-${ kind }-${ run }`,
			};
			await withClient( kind, PLUGIN_SERVER, service, async ( client ) => {
				const first = await call( client, 'service account', kind, PLUGIN_SERVER, OWN_TOOLS[ 0 ]!, input );
				const second = await call( client, 'service account', kind, PLUGIN_SERVER, OWN_TOOLS[ 0 ]!, input );
				expect( first.isError ).toBeFalsy();
				const created = first.structuredContent as unknown as ManufacturingRecord;
				expect( created ).toMatchObject( {
					status: 'publish',
					title: { raw: title },
					meta: { source_order_id: paid[ 0 ], priority: 'high', due_date: '2026-12-20' },
				} );
				expect( ( second.structuredContent as unknown as ManufacturingRecord ).id ).toBe( created.id );

				const read = await call( client, 'service account', kind, PLUGIN_SERVER, OWN_TOOLS[ 1 ]!, {
					id: created.id,
				} );
				const rest = await account.client.get< ManufacturingRecord >( `${ ROUTE }/${ created.id }` );
				expect( read.isError ).toBeFalsy();
				const { _links: links, ...record } = rest.body as ManufacturingRecord & { _links?: unknown };
				expect( links ).toBeDefined();
				expect( read.structuredContent ).toEqual( record );
			} );
			const found = await adminClient().get< ManufacturingRecord[] >(
				`${ ROUTE }?search=${ encodeURIComponent( title ) }&status=any&per_page=100`
			);
			expect( found.body.map( ( record ) => record.title.raw ?? record.title.rendered ) ).toHaveLength( 1 );
		} );

		it( 'refuses the service account the administrator’s record, as the REST route does', async () => {
			const others = await adminClient().post< { id: number } >( ROUTE, {
				title: `MCP ${ kind } ${ run }: the administrator’s`,
				status: 'publish',
			} );
			expect( others.status ).toBe( 201 );
			const rest = await account.client.get< RestError >( `${ ROUTE }/${ others.body.id }` );
			expect( [ rest.status, rest.body.code ] ).toEqual( [ 403, 'rest_forbidden' ] );
			await withClient( kind, PLUGIN_SERVER, service, async ( client ) => {
				const answer = await call( client, 'service account', kind, PLUGIN_SERVER, OWN_TOOLS[ 1 ]!, {
					id: others.body.id,
				} );
				expect( answer.isError ).toBe( true );
				expect( answerText( answer ) ).toBe( rest.body.message );
			} );
			// The administrator reads it through the same tool.
			await withClient( kind, PLUGIN_SERVER, admin, async ( client ) => {
				const answer = await call( client, 'administrator', kind, PLUGIN_SERVER, OWN_TOOLS[ 1 ]!, {
					id: others.body.id,
				} );
				expect( answer.isError ).toBeFalsy();
				expect( answer.structuredContent ).toMatchObject( { id: others.body.id } );
			} );
		} );

		it.each( [
			[ 'a missing title', { status: 'draft' }, 'title' ],
			[ 'an empty title', { title: '', status: 'draft' }, 'title' ],
			[ 'a title of spaces', { title: '   ', status: 'draft' }, 'title' ],
			[ 'WooCommerce’s refunded status', { title: 'Refunded?', status: 'wc-refunded' }, 'status' ],
			[
				'a due date that does not exist',
				{ title: 'Due when?', meta: { due_date: '2026-02-30' } },
				'meta.due_date',
			],
		] )( 'answers %s with an error naming the field, and writes nothing', async ( _label, input, field ) => {
			const marker = `MCP-BAD-${ kind }-${ run }-${ field }`;
			// A real title carries the marker; a missing or blank one stays as it is.
			const withMarker =
				'title' in input && input.title.trim() ? { ...input, title: `${ input.title } ${ marker }` } : input;
			await withClient( kind, PLUGIN_SERVER, service, async ( client ) => {
				const answer = await call(
					client,
					'service account',
					kind,
					PLUGIN_SERVER,
					OWN_TOOLS[ 0 ]!,
					withMarker
				);
				expect( answer.isError ).toBe( true );
				expect( answerText( answer ) ).toContain( field );
			} );
			const mine = await account.client.get< ManufacturingRecord[] >(
				`${ ROUTE }?status=draft,publish,pending,private,future&per_page=100`
			);
			expect(
				mine.body.filter( ( record ) => ( record.title.raw ?? record.title.rendered ).includes( marker ) )
			).toEqual( [] );
			expect( mine.body.filter( ( record ) => '' === ( record.title.raw ?? record.title.rendered ) ) ).toEqual(
				[]
			);
		} );

		it( 'refuses core/get-site-info and another plugin’s ability through every server and tool', async () => {
			await withPluginActive( FOREIGN_PLUGIN, async () => {
				await expectRefusedEverywhere( kind, 'service account' );
				// A plugin that widens the role (manage_options among others) changes nothing.
				await withPluginActive( 'role-widener-filter/role-widener-filter', () =>
					expectRefusedEverywhere( kind, 'service account, role widened' )
				);
			} );
			await adminClient().request( {
				method: 'DELETE',
				path: '/service-integration/v1/service-account/widening',
			} );
		} );

		it( 'lets the administrator discover and run the abilities through the default server', async () => {
			await withClient( kind, DEFAULT_SERVER, admin, async ( client ) => {
				const { tools } = await client.listTools();
				expect( tools.map( ( tool ) => tool.name ).sort() ).toEqual( ADAPTER_TOOLS );
				const discovered = await call( client, 'administrator', kind, DEFAULT_SERVER, ADAPTER_TOOLS[ 0 ]! );
				const names = (
					discovered.structuredContent as { abilities: Array< { name: string } > }
				 ).abilities.map( ( ability ) => ability.name );
				expect( names.sort() ).toEqual(
					[ CREATE_MANUFACTURING_ORDER, GET_MANUFACTURING_ORDER, LIST_PAID_ORDERS ].sort()
				);
				const info = await call( client, 'administrator', kind, DEFAULT_SERVER, ADAPTER_TOOLS[ 2 ]!, {
					ability_name: CREATE_MANUFACTURING_ORDER,
				} );
				expect( info.structuredContent ).toMatchObject( {
					name: CREATE_MANUFACTURING_ORDER,
					meta: {
						annotations: { readonly: false, destructive: false, idempotent: false },
						mcp: { public: true },
					},
				} );
				const created = await call( client, 'administrator', kind, DEFAULT_SERVER, ADAPTER_TOOLS[ 1 ]!, {
					ability_name: CREATE_MANUFACTURING_ORDER,
					parameters: { title: `MCP ${ kind } ${ run }: by the administrator`, status: 'draft' },
				} );
				expect( created.structuredContent ).toMatchObject( { success: true, data: { status: 'draft' } } );
			} );
		} );
	} );

	it( 'refuses the service account the default server over HTTP until a site opens its route', async () => {
		await expect( connect( 'http', DEFAULT_SERVER, service ) ).rejects.toThrow( /403|rest_forbidden/ );
	} );

	/**
	 * core/get-site-info (manage_options) and fixture-mcp/echo (any signed-in user) refused to the
	 * service account: as direct tools of another plugin's server, through the default server's
	 * discover, get-info and execute tools, and as a tool name on the plugin's own server.
	 */
	async function expectRefusedEverywhere( kind: McpTransportKind, who: string ): Promise< void > {
		await withClient( kind, PLUGIN_SERVER, service, async ( client ) => {
			for ( const name of [ 'core-get-site-info', 'fixture-mcp-echo', ...ADAPTER_TOOLS ] ) {
				await expect( client.callTool( { name, arguments: {} } ) ).rejects.toThrow( /not found/i );
			}
			mcpTranscript( who, kind, PLUGIN_SERVER, 'tools/call core-get-site-info', 'refused: tool not found' );
		} );
		await withClient( kind, FOREIGN_SERVER, service, async ( client ) => {
			const { tools } = await client.listTools();
			expect( tools.map( ( tool ) => tool.name ).sort() ).toEqual( [ 'core-get-site-info', 'fixture-mcp-echo' ] );
			for ( const name of [ 'core-get-site-info', 'fixture-mcp-echo' ] ) {
				const answer = await call( client, who, kind, FOREIGN_SERVER, name, { text: 'hello' } );
				expect( answer.isError ).toBe( true );
				expect( answerText( answer ) ).toMatch( /not allowed/ );
				expect( JSON.stringify( answer ) ).not.toContain( 'hello' );
			}
		} );
		await withClient( kind, DEFAULT_SERVER, service, async ( client ) => {
			const attempts: Array< [ string, Record< string, unknown > ] > = [
				[ ADAPTER_TOOLS[ 0 ]!, {} ],
				[ ADAPTER_TOOLS[ 2 ]!, { ability_name: 'core/get-site-info' } ],
				[ ADAPTER_TOOLS[ 2 ]!, { ability_name: 'fixture-mcp/echo' } ],
				[ ADAPTER_TOOLS[ 1 ]!, { ability_name: 'core/get-site-info', parameters: {} } ],
				[ ADAPTER_TOOLS[ 1 ]!, { ability_name: 'fixture-mcp/echo', parameters: { text: 'hello' } } ],
			];
			for ( const [ name, args ] of attempts ) {
				const answer = await call( client, who, kind, DEFAULT_SERVER, name, args );
				expect( answer.isError ).toBe( true );
				expect( answerText( answer ) ).toMatch( /not allowed/ );
				expect( JSON.stringify( answer ) ).not.toMatch( /siteurl|hello|fixture-mcp\/echo"/ );
			}
		} );
	}
} );
