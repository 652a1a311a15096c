import fs from 'fs';
import path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { wpCliPhar } from '../../../scripts/lib/builds';
import { ROOT } from '../../../scripts/lib/paths';
import { readState } from '../support/environment';

/** The plugin's MCP server (plugin/includes/Abilities/class-mcp-server.php) and the MCP Adapter's own. */
export const PLUGIN_SERVER = 'service-integration';
export const DEFAULT_SERVER = 'mcp-adapter-default-server';
/** tests/fixtures/plugins/mcp-foreign-abilities: another plugin's ability and server. */
export const FOREIGN_SERVER = 'fixture-mcp-server';
export const FOREIGN_PLUGIN = 'mcp-foreign-abilities/mcp-foreign-abilities';
export const ADAPTER_PLUGIN = 'mcp-adapter/mcp-adapter';

export type McpTransportKind = 'stdio' | 'http';

/** Who connects: a login and, for HTTP, an application password. */
export interface McpUser {
	username: string;
	password: string;
}

/** The MCP Adapter needs WordPress 6.9 or later (the Abilities API). */
export function siteHasAbilitiesApi(): boolean {
	const [ major = 0, minor = 0 ] = readState()
		.wordpressVersion.split( '.' )
		.map( ( part ) => Number.parseInt( part, 10 ) );
	return major > 6 || ( 6 === major && minor >= 9 );
}

/**
 * The STDIO command an MCP client is configured with: WP-CLI's `mcp-adapter serve` on the site's
 * WordPress, as the given user.
 */
export function stdioCommand( server: string, username: string ): { command: string; args: string[] } {
	const { wordpressDir } = readState();
	return {
		command: 'php',
		args: [
			wpCliPhar(),
			`--path=${ wordpressDir }`,
			'--allow-root',
			'mcp-adapter',
			'serve',
			`--server=${ server }`,
			`--user=${ username }`,
		],
	};
}

/** The HTTP endpoint of an MCP server of the site. */
export function httpUrl( server: string ): URL {
	return new URL( `${ readState().siteUrl.replace( /\/$/, '' ) }/wp-json/mcp/${ server }` );
}

/**
 * A real MCP client (@modelcontextprotocol/sdk) connected to one of the site's MCP servers: over
 * STDIO through WP-CLI, or over HTTP (streamable HTTP) with the user's application password in
 * an HTTP Basic header. Close it after use.
 */
export async function connect( kind: McpTransportKind, server: string, user: McpUser ): Promise< Client > {
	const client = new Client( { name: 'service-integration-e2e', version: '1.0.0' } );
	if ( kind === 'stdio' ) {
		const { command, args } = stdioCommand( server, user.username );
		await client.connect( new StdioClientTransport( { command, args, stderr: 'pipe' } ) );
	} else {
		const authorization = `Basic ${ Buffer.from( `${ user.username }:${ user.password }` ).toString( 'base64' ) }`;
		await client.connect(
			new StreamableHTTPClientTransport( httpUrl( server ), {
				requestInit: { headers: { Authorization: authorization } },
			} )
		);
	}
	return client;
}

/** Runs `fn` with a connected client, and always closes it. */
export async function withClient< T >(
	kind: McpTransportKind,
	server: string,
	user: McpUser,
	fn: ( client: Client ) => Promise< T >
): Promise< T > {
	const client = await connect( kind, server, user );
	try {
		return await fn( client );
	} finally {
		await client.close();
	}
}

/** A tool call's answer, as the SDK gives it. */
export interface ToolAnswer {
	isError?: boolean;
	content: Array< { type: string; text?: string } >;
	structuredContent?: Record< string, unknown >;
}

/** The text of a tool call's answer (an error's message, or the JSON of a result). */
export function answerText( answer: ToolAnswer ): string {
	return answer.content.map( ( part ) => part.text ?? '' ).join( '\n' );
}

const TRANSCRIPT = path.join( ROOT, 'test-artifacts', 'logs', 'mcp-transcript.log' );

/** Appends one exchange to test-artifacts/logs/mcp-transcript.log. */
export function mcpTranscript(
	who: string,
	kind: McpTransportKind,
	server: string,
	what: string,
	answer: unknown
): void {
	fs.mkdirSync( path.dirname( TRANSCRIPT ), { recursive: true } );
	const text = JSON.stringify( answer );
	fs.appendFileSync(
		TRANSCRIPT,
		`[${ who } over ${ kind }, server ${ server }] ${ what }\n${ text.length > 1500 ? `${ text.slice( 0, 1500 ) }…` : text }\n\n`
	);
}
