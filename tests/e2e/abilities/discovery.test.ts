import { adminClient } from '../support/clients';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import {
	ABILITIES,
	CREATE_MANUFACTURING_ORDER,
	GET_MANUFACTURING_ORDER,
	LIST_PAID_ORDERS,
	type AbilityInfo,
} from './abilities';

/**
 * The plugin's three abilities as an AI agent or the MCP adapter discovers them: in the plugin's
 * category, shown in the REST API and to MCP, annotated, with schemas taken from the REST routes
 * they stand for (the same parameters, the same fields).
 */
describe( 'the abilities an automation discovers', () => {
	let account: ServiceAccount;
	let listed: AbilityInfo[];

	beforeAll( async () => {
		account = await provisionServiceAccount( 'abilities-discovery' );
		const result = await account.client.get< AbilityInfo[] >( `${ ABILITIES }?per_page=100` );
		expect( result.status ).toBe( 200 );
		listed = result.body;
	} );

	it( 'lists the plugin’s three abilities, and only those, to the service account', () => {
		expect( listed.map( ( ability ) => ability.name ).sort() ).toEqual(
			[ CREATE_MANUFACTURING_ORDER, GET_MANUFACTURING_ORDER, LIST_PAID_ORDERS ].sort()
		);
		for ( const ability of listed ) {
			expect( ability.category ).toBe( 'service-integration' );
			expect( ability.meta ).toMatchObject( { show_in_rest: true, mcp: { public: true, type: 'tool' } } );
			expect( ability.label ).not.toBe( '' );
			expect( ability.description ).not.toBe( '' );
		}
	} );

	it( 'annotates the listing and the read as read-only and idempotent, and the creation as neither, nor destructive', () => {
		const annotations = Object.fromEntries(
			listed.map( ( ability ) => [ ability.name, ability.meta.annotations ] )
		);
		expect( annotations[ LIST_PAID_ORDERS ] ).toMatchObject( {
			readonly: true,
			idempotent: true,
			destructive: false,
		} );
		expect( annotations[ GET_MANUFACTURING_ORDER ] ).toMatchObject( {
			readonly: true,
			idempotent: true,
			destructive: false,
		} );
		expect( annotations[ CREATE_MANUFACTURING_ORDER ] ).toMatchObject( {
			readonly: false,
			idempotent: false,
			destructive: false,
		} );
	} );

	it( 'takes the paid-orders parameters and fields from the REST route’s own documentation', async () => {
		const options = await adminClient().request< {
			endpoints: Array< { methods: string[]; args: Record< string, Record< string, unknown > > } >;
			schema: { properties: Record< string, Record< string, unknown > > };
		} >( { method: 'OPTIONS', path: '/service-integration/v1/commandes-payees' } );
		const routeArgs = options.body.endpoints.find( ( endpoint ) => endpoint.methods.includes( 'GET' ) )!.args;
		const ability = listed.find( ( a ) => a.name === LIST_PAID_ORDERS )!;

		const { context: _context, ...params } = routeArgs;
		expect( Object.keys( ability.input_schema.properties! ).sort() ).toEqual( Object.keys( params ).sort() );
		for ( const [ name, arg ] of Object.entries( params ) ) {
			expect( ability.input_schema.properties![ name ] ).toMatchObject( {
				type: arg.type,
				description: arg.description,
				...( arg.enum ? { enum: arg.enum } : {} ),
				...( arg.minimum !== undefined ? { minimum: arg.minimum } : {} ),
				...( arg.maximum !== undefined ? { maximum: arg.maximum } : {} ),
			} );
		}
		const items = ability.output_schema.properties!.orders!.items as {
			properties: Record< string, { type: unknown; description?: string } >;
		};
		expect( Object.keys( items.properties ).sort() ).toEqual(
			Object.keys( options.body.schema.properties ).sort()
		);
		for ( const [ name, field ] of Object.entries( options.body.schema.properties ) ) {
			expect( items.properties[ name ] ).toMatchObject( { type: field.type, description: field.description } );
		}
	} );

	it( 'takes the manufacturing order’s status and custom fields from the REST route’s schema', async () => {
		const options = await adminClient().request< {
			schema: { properties: Record< string, { type: unknown; enum?: string[]; properties?: object } > };
		} >( { method: 'OPTIONS', path: '/wp/v2/commandes-fabrication' } );
		const ability = listed.find( ( a ) => a.name === CREATE_MANUFACTURING_ORDER )!;
		const input = ability.input_schema.properties!;
		expect( Object.keys( input ).sort() ).toEqual( [ 'idempotency_key', 'meta', 'status', 'title' ] );
		expect( input.status!.enum ).toEqual( options.body.schema.properties.status!.enum );
		const meta = input.meta as { properties: Record< string, Record< string, unknown > > };
		const routeMeta = options.body.schema.properties.meta!.properties as Record<
			string,
			Record< string, unknown >
		>;
		expect( Object.keys( meta.properties ).sort() ).toEqual( Object.keys( routeMeta ).sort() );
		expect( meta.properties.priority ).toMatchObject( { type: 'string', enum: [ 'low', 'normal', 'high' ] } );
		expect( meta.properties.items ).toMatchObject( {
			type: 'array',
			items: { type: 'object', required: [ 'quantity' ], additionalProperties: false },
		} );

		const get = listed.find( ( a ) => a.name === GET_MANUFACTURING_ORDER )!;
		expect( get.input_schema ).toMatchObject( { required: [ 'id' ], properties: { id: { type: 'integer' } } } );
	} );

	it( 'describes one ability of its own to the service account', async () => {
		const one = await account.client.get< AbilityInfo >( `${ ABILITIES }/${ LIST_PAID_ORDERS }` );
		expect( one.status ).toBe( 200 );
		expect( one.body.name ).toBe( LIST_PAID_ORDERS );
	} );
} );
