<?php
/**
 * The plugin's checks in Tools > Site Health.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Admin;

use ServiceIntegration\Outbound\Hand_Over;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Sidecar\Sidecar_Client;
use ServiceIntegration\Sidecar\Sidecar_Messages;

use const ServiceIntegration\REST_NAMESPACE;
use const ServiceIntegration\VERSION;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Four checks a site owner can act on: the sidecar answers, the outbox is not stuck, a real
 * cron runs the plugin's jobs, and permalinks are not plain (Plain_Permalinks). They are asynchronous tests (Site Health fetches each from
 * its REST route, Site_Health_Controller), so a sidecar that hangs never slows the page.
 * Each returns core's result shape: label, status (good, recommended, critical), badge,
 * description, actions, test.
 */
final class Site_Health {

	/** Tests' names, as Site Health and the REST routes know them. */
	const TESTS = array( 'sidecar', 'outbox', 'cron', 'permalinks' );

	/** An outbox row older than this (minutes) means hand-overs are not getting through. */
	const STUCK_AFTER_MINUTES = 15;

	/** The every-minute hand-over job overdue by more than this (minutes) means cron is not running. */
	const CRON_LATE_MINUTES = 10;

	/**
	 * Seconds the sidecar test waits for an answer. Site Health's page waits for each test in
	 * turn, and a test should be done within 5 s with WordPress's own start included, even when
	 * the sidecar accepts the connection and never answers.
	 */
	const SIDECAR_TIMEOUT = 3.0;

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Sidecar client.
	 * @param Outbox         $outbox  The outbox whose oldest pending event is checked.
	 */
	public function __construct( private Sidecar_Client $sidecar, private Outbox $outbox ) {
	}

	/**
	 * Registers the tests with Site Health.
	 */
	public function register(): void {
		add_filter( 'site_status_tests', array( $this, 'add_tests' ) );
	}

	/**
	 * Adds the asynchronous tests.
	 *
	 * @param array $tests Site Health's tests.
	 * @return array
	 */
	public function add_tests( $tests ) {
		$labels = array(
			'sidecar'    => __( 'The Service Integration sidecar answers', 'service-integration' ),
			'outbox'     => __( 'Order events reach the sidecar', 'service-integration' ),
			'cron'       => __( 'A real cron runs the Service Integration jobs', 'service-integration' ),
			'permalinks' => __( 'Inbound webhooks reach WordPress at /wp-json/', 'service-integration' ),
		);
		foreach ( self::TESTS as $name ) {
			$tests['async'][ 'service_integration_' . $name ] = array(
				'label'             => $labels[ $name ],
				'test'              => rest_url( REST_NAMESPACE . '/site-health/' . $name ),
				'has_rest'          => true,
				'async_direct_test' => fn() => $this->run( $name ),
			);
		}
		return $tests;
	}

	/**
	 * Runs one test.
	 *
	 * @param string $name One of TESTS.
	 * @return array<string, mixed> Site Health's result shape.
	 */
	public function run( string $name ): array {
		switch ( $name ) {
			case 'sidecar':
				return $this->sidecar_test();
			case 'outbox':
				return $this->outbox_test();
			case 'permalinks':
				return self::permalinks_test();
			default:
				return $this->cron_test();
		}
	}

	/**
	 * The signed round trip to the sidecar works, and it runs the plugin's version.
	 */
	private function sidecar_test(): array {
		$test = 'service_integration_sidecar';
		if ( ! $this->sidecar->is_configured() ) {
			return self::result(
				$test,
				'critical',
				__( 'The Service Integration sidecar is not configured', 'service-integration' ),
				__( 'Without it, order events wait in the outbox and inbound webhooks are refused with 503. Run "service-integration-sidecar init" on the server and add the wp-config.php lines it prints (SERVICE_INTEGRATION_SIDECAR_URL and SERVICE_INTEGRATION_SIDECAR_KEY).', 'service-integration' )
			);
		}
		$answer = $this->sidecar->request_json( 'GET', '/v1/status', null, self::SIDECAR_TIMEOUT );
		if ( is_wp_error( $answer ) ) {
			$data   = $answer->get_error_data();
			$reason = is_array( $data ) && isset( $data['reason'] ) && is_string( $data['reason'] ) ? $data['reason'] : '';
			return self::result(
				$test,
				'critical',
				__( 'The Service Integration sidecar does not answer', 'service-integration' ),
				sprintf(
					/* translators: 1: sidecar URL, 2: error message, 3: what to do (how to start it where this site runs, what to check). */
					__( 'WordPress could not reach the sidecar at %1$s: %2$s. Order events wait in the outbox and inbound webhooks are answered 503 until it is back. %3$s', 'service-integration' ),
					$this->sidecar->base_url(),
					// What the transport said (refused, timed out…) tells a stopped sidecar from a hung one.
					$answer->get_error_message() . ( '' === $reason ? '' : ' (' . $reason . ')' ),
					Sidecar_Messages::unreachable_hint()
				)
			);
		}
		$version = is_array( $answer['body'] ) && isset( $answer['body']['version'] ) ? (string) $answer['body']['version'] : '';
		if ( VERSION !== $version ) {
			return self::result(
				$test,
				'recommended',
				__( 'The Service Integration sidecar runs another version than the plugin', 'service-integration' ),
				sprintf(
					/* translators: 1: sidecar version, 2: plugin version. */
					__( 'The sidecar runs version %1$s and the plugin is %2$s. Install the sidecar package of the same release and restart it.', 'service-integration' ),
					'' === $version ? __( 'unknown', 'service-integration' ) : $version,
					VERSION
				)
			);
		}
		return self::result(
			$test,
			'good',
			__( 'The Service Integration sidecar answers', 'service-integration' ),
			sprintf(
				/* translators: 1: sidecar URL, 2: version. */
				__( 'The sidecar at %1$s answered a signed request (version %2$s).', 'service-integration' ),
				$this->sidecar->base_url(),
				$version
			)
		);
	}

	/**
	 * Order events waiting in the outbox are handed over within minutes.
	 */
	private function outbox_test(): array {
		$test   = 'service_integration_outbox';
		$counts = $this->outbox->counts();
		if ( is_wp_error( $counts ) ) {
			return self::result( $test, 'critical', __( 'The outbox cannot be read', 'service-integration' ), $counts->get_error_message() );
		}
		$oldest = null === $counts['oldest_pending'] ? null : strtotime( $counts['oldest_pending'] . ' UTC' );
		$age    = null === $oldest || false === $oldest ? 0 : max( 0, time() - $oldest );
		if ( $counts['pending'] > 0 && $age > self::STUCK_AFTER_MINUTES * MINUTE_IN_SECONDS ) {
			return self::result(
				$test,
				'critical',
				__( 'Order events are stuck in the outbox', 'service-integration' ),
				sprintf(
					/* translators: 1: number of events, 2: how long ago, e.g. "2 hours", 3: last error. */
					_n( '%1$d order event is waiting to be handed over to the sidecar, for %2$s. Last error: %3$s. It is kept and goes out once the sidecar answers: check the sidecar test above and that a cron runs.', '%1$d order events are waiting to be handed over to the sidecar, the oldest for %2$s. Last error: %3$s. They are kept and go out in order once the sidecar answers: check the sidecar test above and that a cron runs.', $counts['pending'], 'service-integration' ),
					$counts['pending'],
					human_time_diff( (int) $oldest ),
					$counts['last_error'] ?? __( 'none recorded', 'service-integration' )
				)
			);
		}
		return self::result(
			$test,
			'good',
			__( 'Order events reach the sidecar', 'service-integration' ),
			sprintf(
				/* translators: %d: number of events waiting. */
				_n( '%d order event is waiting to be handed over, which is normal for a few seconds.', '%d order events are waiting to be handed over, which is normal for a few seconds.', $counts['pending'], 'service-integration' ),
				$counts['pending']
			)
		);
	}

	/**
	 * The hand-over job runs on time, from a real cron rather than visitors' page views.
	 */
	private function cron_test(): array {
		$test = 'service_integration_cron';
		$next = wp_next_scheduled( Hand_Over::CRON_HOOK );
		if ( false !== $next && $next < time() - self::CRON_LATE_MINUTES * MINUTE_IN_SECONDS ) {
			return self::result(
				$test,
				'critical',
				__( 'The Service Integration jobs are not running', 'service-integration' ),
				sprintf(
					/* translators: %s: how long ago, e.g. "20 mins". */
					__( 'The every-minute hand-over job was due %s ago and has not run. Order events then wait for the next live request, and inbound events are not processed. Run wp-cron.php every minute from the system cron: * * * * * curl -fsS -o /dev/null https://example.com/wp-cron.php', 'service-integration' ),
					human_time_diff( (int) $next )
				)
			);
		}
		if ( ! defined( 'DISABLE_WP_CRON' ) || ! DISABLE_WP_CRON ) {
			return self::result(
				$test,
				'recommended',
				__( 'Service Integration jobs depend on visitors', 'service-integration' ),
				__( 'WP-Cron runs only when someone loads a page, so on a quiet site the outbox hand-over and inbound processing wait for a visitor. Add define( \'DISABLE_WP_CRON\', true ); to wp-config.php and run wp-cron.php every minute from the system cron: * * * * * curl -fsS -o /dev/null https://example.com/wp-cron.php', 'service-integration' )
			);
		}
		return self::result(
			$test,
			'good',
			__( 'A real cron runs the Service Integration jobs', 'service-integration' ),
			__( 'WP-Cron is driven by a system cron (DISABLE_WP_CRON is set) and the hand-over job is on time.', 'service-integration' )
		);
	}

	/**
	 * Permalinks are not plain: with plain ones, webhooks posted to /wp-json/… are lost.
	 */
	private static function permalinks_test(): array {
		$test = 'service_integration_permalinks';
		if ( Plain_Permalinks::are_plain() ) {
			return self::result(
				$test,
				'critical',
				__( 'Plain permalinks make inbound webhooks get lost', 'service-integration' ),
				Plain_Permalinks::explanation(),
				Plain_Permalinks::settings_url(),
				__( 'Open Settings > Permalinks', 'service-integration' )
			);
		}
		return self::result(
			$test,
			'good',
			__( 'Inbound webhooks reach WordPress at /wp-json/', 'service-integration' ),
			__( 'Permalinks are not plain, so /wp-json/ reaches the REST API and the inbound webhook routes.', 'service-integration' )
		);
	}

	/**
	 * Site Health's result shape, with a link to the plugin's page or to where the fix is.
	 *
	 * @param string      $test         Test id.
	 * @param string      $status       good, recommended or critical.
	 * @param string      $label        Headline.
	 * @param string      $description  Plain-text explanation, escaped here.
	 * @param string|null $action_url   Where the fix is; null for the plugin's page.
	 * @param string|null $action_label That link's text.
	 */
	private static function result( string $test, string $status, string $label, string $description, ?string $action_url = null, ?string $action_label = null ): array {
		return array(
			'label'       => $label,
			'status'      => $status,
			'badge'       => array(
				'label' => __( 'Service Integration', 'service-integration' ),
				'color' => 'good' === $status ? 'blue' : ( 'critical' === $status ? 'red' : 'orange' ),
			),
			'description' => '<p>' . esc_html( $description ) . '</p>',
			'actions'     => sprintf(
				'<p><a href="%1$s">%2$s</a></p>',
				esc_url( $action_url ?? admin_url( 'admin.php?page=' . Admin_Page::SLUG ) ),
				esc_html( $action_label ?? __( 'Open Service Integration', 'service-integration' ) )
			),
			'test'        => $test,
		);
	}
}
