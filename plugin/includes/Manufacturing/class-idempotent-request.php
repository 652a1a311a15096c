<?php
/**
 * Runs a REST write once per Idempotency-Key: a retry gets the first answer.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use WP_Error;
use WP_REST_Request;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Stripe's semantics for the IETF draft's header: the same key and the same request from
 * the same user within 24 hours answer as the first time (status, body, headers, plus
 * `Idempotent-Replayed: true`) without doing the work again; the same key with another
 * request is refused (422); while the first is still running, 409 with Retry-After. Only a
 * success is kept: a refused or failed request wrote nothing, so its key is released and a
 * corrected retry runs. Without the header the request runs as always.
 *
 * When the keys' table cannot be read or written before the work, the request answers the
 * store's 500 `service_integration_database_error` and does nothing. When the answer cannot be
 * recorded after the work, the answer still goes out (the record exists; an error would tell the
 * client to create it again) and the failure is logged.
 */
final class Idempotent_Request {

	/**
	 * The request header (WP_REST_Request::get_header() normalises the name).
	 */
	const HEADER = 'Idempotency-Key';

	/**
	 * The response header of a replay (Stripe's name).
	 */
	const REPLAYED_HEADER = 'Idempotent-Replayed';

	/**
	 * Constructor.
	 *
	 * @param Idempotency_Store $store The keys and their first answers.
	 */
	public function __construct( private Idempotency_Store $store ) {
	}

	/**
	 * Runs $handler for the request, unless its key already answered.
	 *
	 * @param WP_REST_Request $request Request.
	 * @param string          $scope   What the key is for (a key names one write of one route).
	 * @param callable        $handler Does the work: WP_REST_Request => WP_REST_Response|WP_Error.
	 * @return WP_REST_Response|WP_Error
	 */
	public function run( WP_REST_Request $request, string $scope, callable $handler ) {
		$header = $request->get_header( self::HEADER );
		if ( null === $header ) {
			return $handler( $request );
		}
		$key = Idempotency_Key::parse( $header );
		if ( null === $key ) {
			return new WP_Error(
				'idempotency_key_invalid',
				/* translators: 1: the header's name (Idempotency-Key), 2: the longest key in characters. */
				sprintf( __( 'The %1$s header must be 1 to %2$d printable ASCII characters.', 'service-integration' ), self::HEADER, Idempotency_Key::MAX_LENGTH ),
				array( 'status' => 400 )
			);
		}
		$claim = $this->store->claim( get_current_user_id(), $scope, $key, self::fingerprint( $request ) );
		if ( is_wp_error( $claim ) ) {
			return $claim;
		}
		switch ( $claim['state'] ) {
			case 'claimed':
				return $this->first( $request, $handler, $claim['id'], $claim['token'] );
			case 'replay':
				return self::replay( $claim['status'], $claim['data'], $claim['meta'] );
			case 'mismatch':
				return new WP_Error(
					'idempotency_key_reused',
					/* translators: %s: the header's name (Idempotency-Key). */
					sprintf( __( 'This %s was already used with another request. Send a new key for a new request.', 'service-integration' ), self::HEADER ),
					array( 'status' => 422 )
				);
			default: // in_progress.
				$response = rest_convert_error_to_response(
					new WP_Error(
						'idempotency_key_in_progress',
						/* translators: %s: the header's name (Idempotency-Key). */
						sprintf( __( 'A request with this %s is still in progress. Retry it once that one has finished.', 'service-integration' ), self::HEADER ),
						array( 'status' => 409 )
					)
				);
				$response->header( 'Retry-After', (string) max( 1, (int) $claim['retry_after'] ) );
				return $response;
		}
	}

	/**
	 * The first request with the key: does the work and keeps a success for the replays.
	 *
	 * @param WP_REST_Request $request Request.
	 * @param callable        $handler Handler.
	 * @param int             $id      Claimed row.
	 * @param string          $token   Claim token.
	 * @return WP_REST_Response|WP_Error
	 * @throws \Throwable What the handler throws, once the claim is released.
	 */
	private function first( WP_REST_Request $request, callable $handler, int $id, string $token ) {
		try {
			$result = $handler( $request );
		} catch ( \Throwable $error ) {
			$this->store->release( $id, $token );
			throw $error;
		}
		if ( is_wp_error( $result ) ) {
			$this->store->release( $id, $token );
			return $result;
		}
		$response = rest_ensure_response( $result );
		if ( $response->get_status() >= 400 ) {
			$this->store->release( $id, $token );
			return $response;
		}
		// A failure is logged by the store; the key then answers "in progress" until its lease ends.
		$this->store->complete(
			$id,
			$token,
			$response->get_status(),
			$response->get_data(),
			array(
				'headers' => $response->get_headers(),
				'links'   => $response->get_links(),
			)
		);
		return $response;
	}

	/**
	 * The first answer again, as it was given.
	 *
	 * @param int   $status Status.
	 * @param array $data   Data.
	 * @param array $meta   {headers, links}.
	 */
	private static function replay( int $status, array $data, array $meta ): WP_REST_Response {
		$response = new WP_REST_Response( $data, $status );
		foreach ( (array) ( $meta['headers'] ?? array() ) as $name => $value ) {
			$response->header( (string) $name, (string) $value );
		}
		foreach ( (array) ( $meta['links'] ?? array() ) as $rel => $links ) {
			foreach ( (array) $links as $link ) {
				$response->add_link( (string) $rel, (string) ( $link['href'] ?? '' ), (array) ( $link['attributes'] ?? array() ) );
			}
		}
		$response->header( self::REPLAYED_HEADER, 'true' );
		return $response;
	}

	/**
	 * What makes two requests "the same": their query and body parameters (not the route's
	 * own `rest_route` query parameter, which plain permalinks add).
	 *
	 * @param WP_REST_Request $request Request.
	 */
	private static function fingerprint( WP_REST_Request $request ): string {
		$query = (array) $request->get_query_params();
		unset( $query['rest_route'] );
		return Idempotency_Key::fingerprint(
			array(
				'method' => $request->get_method(),
				'query'  => $query,
				'body'   => $request->get_json_params() ?? $request->get_body_params(),
			)
		);
	}
}
