<?php
/**
 * Wires the plugin's components into WordPress.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Composition root: every component registers its own hooks from here. The stores get their
 * collaborators here (WordPress's database connection, the system clock, its options), and
 * every class that reads or writes them gets the store through its constructor.
 */
final class Plugin {

	/**
	 * Registers all components. Runs on plugins_loaded, before WP::init resolves the user.
	 */
	public static function boot(): void {
		$basis = self::basis();
		list( $outbox, $inbound_store, $inbound_processor ) = self::stores( $basis );
		$paid_orders                                        = self::paid_orders( $basis );
		list( $idempotency_store, $source_orders )          = self::manufacturing( $basis );

		$sidecar     = Sidecar\Sidecar_Client::from_config();
		$site_health = new Admin\Site_Health( $sidecar, $outbox );
		$hand_over   = new Outbound\Hand_Over( $sidecar, $outbox, self::lock( $basis, Outbound\Hand_Over_Lock::OPTION ) );

		Security\Authentication_Errors::register();
		Security\Capability_Clamp::register();
		Security\Xmlrpc_Guard::register();
		Manufacturing\Manufacturing_Order_Type::register( new Manufacturing\Idempotent_Request( $idempotency_store ), $source_orders );
		$source_orders->register();
		// Expired idempotency keys go with the inbound sweep, the five-minute job every site has.
		add_action( Inbound\Inbound_Processor::SWEEP_HOOK, array( $idempotency_store, 'purge_expired' ) );
		Abilities\Abilities::register();
		Abilities\Mcp_Server::register();
		Admin\Widening_Notice::register();
		Admin\Plain_Permalinks::register();
		Admin\Admin_Page::register();
		$site_health->register();
		$paid_orders['hooks']->register();
		$paid_orders['walk']->register();
		Commerce\Paid_Moment_Recorder::register();
		Commerce\Paid_Moment_Query::register();
		( new Outbound\Order_Events( $hand_over, $outbox ) )->register();
		$hand_over->register();
		( new Outbound\Endpoint_Notices() )->register();
		$inbound_processor->register();
		( new Privacy\Personal_Data( $basis[0], $sidecar, $outbox, $inbound_store ) )->register();
		Rest\Json_Encoding::register();
		Cli\Commands::register();

		add_action(
			'rest_api_init',
			static function () use ( $sidecar, $site_health, $hand_over, $outbox, $inbound_store, $paid_orders ): void {
				( new Rest\Sidecar_Status_Controller( $sidecar ) )->register_routes();
				( new Rest\Sidecar_Callback_Controller( $sidecar, $hand_over ) )->register_routes();
				( new Rest\Me_Controller() )->register_routes();
				( new Rest\Service_Account_Controller() )->register_routes();
				( new Rest\Paid_Orders_Controller( $paid_orders['reader'] ) )->register_routes();
				( new Rest\Paid_Order_Index_Controller( $paid_orders['index'], $paid_orders['walk'] ) )->register_routes();
				( new Rest\Sidecar_Proxy_Controller( $sidecar, Rest\Sidecar_Proxy_Routes::all() ) )->register_routes();
				( new Rest\Outbox_Controller( $hand_over, $outbox ) )->register_routes();
				( new Inbound\Inbound_Route( $sidecar, $inbound_store ) )->register_routes();
				( new Rest\Inbound_Events_Controller( $inbound_store ) )->register_routes();
				( new Rest\Site_Health_Controller( $site_health ) )->register_routes();
			}
		);

		add_action(
			'init',
			static function () use ( $basis, $outbox, $inbound_store, $inbound_processor, $paid_orders, $idempotency_store ): void {
				( new Lifecycle( $outbox, $inbound_store, $inbound_processor, $paid_orders['walk'], $idempotency_store, self::lock( $basis, Lifecycle::UPGRADE_LOCK_OPTION ) ) )->maybe_upgrade();
			},
			5
		);
	}

	/**
	 * Activation hook: the plugin was inactive when this request began, so boot() has not run;
	 * the lifecycle gets its stores from the same wiring.
	 */
	public static function activate(): void {
		$basis = self::basis();
		list( $outbox, $inbound_store, $inbound_processor ) = self::stores( $basis );
		( new Lifecycle( $outbox, $inbound_store, $inbound_processor, self::paid_orders( $basis )['walk'], self::manufacturing( $basis )[0], self::lock( $basis, Lifecycle::UPGRADE_LOCK_OPTION ) ) )->activate();
	}

	/**
	 * WordPress's database connection, the system clock and the site's options: what every
	 * store is built over. The one place the plugin reads the global connection.
	 *
	 * @return array{0: \wpdb, 1: Clock, 2: Options}
	 */
	private static function basis(): array {
		global $wpdb;
		return array( $wpdb, new System_Clock(), new Wp_Options( $wpdb ) );
	}

	/**
	 * The outbox, the inbound events' store and their processor.
	 *
	 * @param array{0: \wpdb, 1: Clock, 2: Options} $basis self::basis().
	 * @return array{0: Outbound\Outbox, 1: Inbound\Inbound_Store, 2: Inbound\Inbound_Processor}
	 */
	private static function stores( array $basis ): array {
		list( $db, $clock, $options ) = $basis;
		$inbound_store                = new Inbound\Inbound_Store( $db, $clock, $options );
		return array( new Outbound\Outbox( $db, $clock, $options ), $inbound_store, new Inbound\Inbound_Processor( $inbound_store, $clock ) );
	}

	/**
	 * The manufacturing orders' idempotency keys and their one-live-record-per-source-order rule
	 * (the database, its locks and the setting).
	 *
	 * @param array{0: \wpdb, 1: Clock, 2: Options} $basis self::basis().
	 * @return array{0: Manufacturing\Idempotency_Store, 1: Manufacturing\Source_Order_Uniqueness}
	 */
	private static function manufacturing( array $basis ): array {
		list( $db, $clock, $options ) = $basis;
		return array( new Manufacturing\Idempotency_Store( $db, $clock, $options ), new Manufacturing\Source_Order_Uniqueness( $db, $clock, $options ) );
	}

	/**
	 * A lock row in WordPress's options table.
	 *
	 * @param array{0: \wpdb, 1: Clock, 2: Options} $basis  self::basis().
	 * @param string                                $option The lock's option name.
	 */
	private static function lock( array $basis, string $option ): Option_Lock {
		list( $db, $clock ) = $basis;
		return new Option_Lock( $db, $clock, $option );
	}

	/**
	 * The paid-orders index, the reader of paid orders from it or from WooCommerce (whose queries
	 * run on the same connection), the index's walk and the hooks that write its rows.
	 *
	 * @param array{0: \wpdb, 1: Clock, 2: Options} $basis self::basis().
	 * @return array{index: Commerce\Paid_Order_Index, reader: Commerce\Paid_Order_Reader, walk: Commerce\Paid_Order_Index_Walk, hooks: Commerce\Paid_Order_Index_Hooks}
	 */
	private static function paid_orders( array $basis ): array {
		list( $db, $clock, $options ) = $basis;
		$index                        = new Commerce\Paid_Order_Index( $db, $clock, $options );
		$orders                       = new Commerce\Paid_Orders( $db );
		$hooks                        = new Commerce\Paid_Order_Index_Hooks( $index );
		return array(
			'index'  => $index,
			'reader' => new Commerce\Paid_Order_Reader( $index, $orders ),
			'walk'   => new Commerce\Paid_Order_Index_Walk( $index, $orders, $hooks ),
			'hooks'  => $hooks,
		);
	}
}
