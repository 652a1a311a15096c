<?php
/**
 * Wires the plugin's components into WordPress.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

use ServiceIntegration\Support\Clock;
use ServiceIntegration\Support\Option_Lock;
use ServiceIntegration\Support\Options;
use ServiceIntegration\Support\System_Clock;
use ServiceIntegration\Support\Wp_Options;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Composition root: every component registers its own hooks from here. The stores are built
 * once, over WordPress's database connection, the system clock and the site's options (the one
 * place the plugin reads the global connection), and every class that reads or writes them gets
 * the store through its constructor. Read top to bottom: the constructor builds the stores,
 * register() the components over them, routes() the REST controllers.
 */
final class Plugin {

	/**
	 * The outbox: order events waiting for the hand-over to the sidecar.
	 *
	 * @var Outbound\Outbox
	 */
	private readonly Outbound\Outbox $outbox;

	/**
	 * The inbound events' store.
	 *
	 * @var Inbound\Inbound_Store
	 */
	private readonly Inbound\Inbound_Store $inbound_store;

	/**
	 * Runs the stored inbound events' handlers.
	 *
	 * @var Inbound\Inbound_Processor
	 */
	private readonly Inbound\Inbound_Processor $inbound_processor;

	/**
	 * The paid-orders index.
	 *
	 * @var Commerce\Paid_Order_Index
	 */
	private readonly Commerce\Paid_Order_Index $paid_order_index;

	/**
	 * Reads a page of paid orders from the index or, while it cannot serve, from WooCommerce
	 * (whose queries run on the same connection).
	 *
	 * @var Commerce\Paid_Order_Reader
	 */
	private readonly Commerce\Paid_Order_Reader $paid_order_reader;

	/**
	 * Writes an order's index row when the order is saved, trashed or deleted.
	 *
	 * @var Commerce\Paid_Order_Index_Hooks
	 */
	private readonly Commerce\Paid_Order_Index_Hooks $paid_order_index_hooks;

	/**
	 * Fills and checks the index in Action Scheduler batches.
	 *
	 * @var Commerce\Paid_Order_Index_Walk
	 */
	private readonly Commerce\Paid_Order_Index_Walk $paid_order_index_walk;

	/**
	 * The manufacturing orders' idempotency keys.
	 *
	 * @var Manufacturing\Idempotency_Store
	 */
	private readonly Manufacturing\Idempotency_Store $idempotency_store;

	/**
	 * One live manufacturing order per source order (the database, its locks and the setting).
	 *
	 * @var Manufacturing\Source_Order_Uniqueness
	 */
	private readonly Manufacturing\Source_Order_Uniqueness $source_orders;

	/**
	 * Builds the stores over their basis.
	 *
	 * @param \wpdb   $db      WordPress's database connection.
	 * @param Clock   $clock   The time the stores read.
	 * @param Options $options The site's options.
	 */
	private function __construct( private readonly \wpdb $db, private readonly Clock $clock, Options $options ) {
		$this->outbox                 = new Outbound\Outbox( $db, $clock, $options );
		$this->inbound_store          = new Inbound\Inbound_Store( $db, $clock, $options );
		$this->inbound_processor      = new Inbound\Inbound_Processor( $this->inbound_store, $clock );
		$this->paid_order_index       = new Commerce\Paid_Order_Index( $db, $clock, $options );
		$woocommerce_orders           = new Commerce\Paid_Orders( $db );
		$this->paid_order_reader      = new Commerce\Paid_Order_Reader( $this->paid_order_index, $woocommerce_orders );
		$this->paid_order_index_hooks = new Commerce\Paid_Order_Index_Hooks( $this->paid_order_index );
		$this->paid_order_index_walk  = new Commerce\Paid_Order_Index_Walk( $this->paid_order_index, $woocommerce_orders, $this->paid_order_index_hooks );
		$this->idempotency_store      = new Manufacturing\Idempotency_Store( $db, $clock, $options );
		$this->source_orders          = new Manufacturing\Source_Order_Uniqueness( $db, $clock, $options );
	}

	/**
	 * Registers all components. Runs on plugins_loaded, before WP::init resolves the user.
	 */
	public static function boot(): void {
		self::on_this_site()->register();
	}

	/**
	 * Activation hook: the plugin was inactive when this request began, so boot() has not run;
	 * the lifecycle gets its stores from the same wiring.
	 */
	public static function activate(): void {
		self::on_this_site()->lifecycle()->activate();
	}

	/**
	 * The wiring over this site's database connection, the system clock and its options.
	 */
	private static function on_this_site(): self {
		global $wpdb;
		return new self( $wpdb, new System_Clock(), new Wp_Options( $wpdb ) );
	}

	/**
	 * Builds the components over the stores and registers their hooks.
	 */
	private function register(): void {
		$sidecar     = Sidecar\Sidecar_Client::from_config();
		$site_health = new Admin\Site_Health( $sidecar, $this->outbox );
		$hand_over   = new Outbound\Hand_Over( $sidecar, $this->outbox, $this->lock( Outbound\Hand_Over::LOCK_OPTION ) );

		Security\Authentication_Errors::register();
		Security\Capability_Clamp::register();
		Security\Xmlrpc_Guard::register();
		Manufacturing\Manufacturing_Order_Type::register( new Manufacturing\Idempotent_Request( $this->idempotency_store ), $this->source_orders );
		$this->source_orders->register();
		// Expired idempotency keys go with the inbound sweep, the five-minute job every site has.
		add_action( Inbound\Inbound_Processor::SWEEP_HOOK, array( $this->idempotency_store, 'purge_expired' ) );
		Abilities\Abilities::register();
		Abilities\Mcp_Server::register();
		Admin\Widening_Notice::register();
		Admin\Plain_Permalinks::register();
		Admin\Admin_Page::register();
		$site_health->register();
		$this->paid_order_index_hooks->register();
		$this->paid_order_index_walk->register();
		Commerce\Paid_Moment_Recorder::register();
		Commerce\Paid_Moment_Query::register();
		( new Outbound\Order_Events( $hand_over, $this->outbox ) )->register();
		$hand_over->register();
		( new Outbound\Endpoint_Notices() )->register();
		$this->inbound_processor->register();
		( new Privacy\Personal_Data( $this->db, $sidecar, $this->outbox, $this->inbound_store ) )->register();
		Rest\Json_Encoding::register();
		Cli\Commands::register();

		add_action( 'rest_api_init', fn() => $this->routes( $sidecar, $site_health, $hand_over ) );
		add_action( 'init', fn() => $this->lifecycle()->maybe_upgrade(), 5 );
	}

	/**
	 * Registers the REST controllers (on rest_api_init).
	 *
	 * @param Sidecar\Sidecar_Client $sidecar     The signed client of the sidecar.
	 * @param Admin\Site_Health      $site_health The Site Health tests.
	 * @param Outbound\Hand_Over     $hand_over   The hand-over to the sidecar.
	 */
	private function routes( Sidecar\Sidecar_Client $sidecar, Admin\Site_Health $site_health, Outbound\Hand_Over $hand_over ): void {
		( new Rest\Sidecar_Status_Controller( $sidecar ) )->register_routes();
		( new Rest\Sidecar_Callback_Controller( $sidecar, $hand_over ) )->register_routes();
		( new Rest\Me_Controller() )->register_routes();
		( new Rest\Service_Account_Controller() )->register_routes();
		( new Rest\Paid_Orders_Controller( $this->paid_order_reader ) )->register_routes();
		( new Rest\Paid_Order_Index_Controller( $this->paid_order_index, $this->paid_order_index_walk ) )->register_routes();
		( new Rest\Sidecar_Proxy_Controller( $sidecar, Rest\Sidecar_Proxy_Routes::all() ) )->register_routes();
		( new Rest\Outbox_Controller( $hand_over, $this->outbox ) )->register_routes();
		( new Inbound\Inbound_Route( $sidecar, $this->inbound_store ) )->register_routes();
		( new Rest\Inbound_Events_Controller( $this->inbound_store ) )->register_routes();
		( new Rest\Site_Health_Controller( $site_health ) )->register_routes();
	}

	/**
	 * Creates and upgrades the tables, and schedules the processing and the index's walk.
	 */
	private function lifecycle(): Lifecycle {
		return new Lifecycle( $this->outbox, $this->inbound_store, $this->inbound_processor, $this->paid_order_index_walk, $this->idempotency_store, $this->lock( Lifecycle::UPGRADE_LOCK_OPTION ) );
	}

	/**
	 * A lock row in WordPress's options table.
	 *
	 * @param string $option The lock's option name.
	 */
	private function lock( string $option ): Option_Lock {
		return new Option_Lock( $this->db, $this->clock, $option );
	}
}
