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
 * Composition root: every component registers its own hooks from here.
 */
final class Plugin {

	/**
	 * Registers all components. Runs on plugins_loaded, before WP::init resolves the user.
	 */
	public static function boot(): void {
		$sidecar     = Sidecar\Sidecar_Client::from_config();
		$site_health = new Admin\Site_Health( $sidecar );
		$hand_over   = new Outbound\Hand_Over( $sidecar );

		Security\Authentication_Errors::register();
		Security\Capability_Clamp::register();
		Security\Xmlrpc_Guard::register();
		Manufacturing\Manufacturing_Order_Type::register();
		Manufacturing\Source_Order_Uniqueness::register();
		// Expired idempotency keys go with the inbound sweep, the five-minute job every site has.
		add_action( Inbound\Inbound_Processor::SWEEP_HOOK, array( Manufacturing\Idempotency_Store::class, 'purge_expired' ) );
		Abilities\Abilities::register();
		Admin\Widening_Notice::register();
		Admin\Admin_Page::register();
		$site_health->register();
		Commerce\Paid_Order_Index_Hooks::register();
		Commerce\Paid_Order_Index_Walk::register();
		Commerce\Paid_Moment_Recorder::register();
		Commerce\Paid_Moment_Query::register();
		( new Outbound\Order_Events( $hand_over ) )->register();
		$hand_over->register();
		( new Outbound\Endpoint_Notices() )->register();
		Inbound\Inbound_Processor::register();
		( new Privacy\Personal_Data( $sidecar ) )->register();
		Rest\Json_Encoding::register();
		Cli\Commands::register();

		add_action(
			'rest_api_init',
			static function () use ( $sidecar, $site_health, $hand_over ): void {
				( new Rest\Sidecar_Status_Controller( $sidecar ) )->register_routes();
				( new Rest\Sidecar_Callback_Controller( $sidecar ) )->register_routes();
				( new Rest\Me_Controller() )->register_routes();
				( new Rest\Service_Account_Controller() )->register_routes();
				( new Rest\Paid_Orders_Controller() )->register_routes();
				( new Rest\Paid_Order_Index_Controller() )->register_routes();
				( new Rest\Sidecar_Proxy_Controller( $sidecar, Rest\Sidecar_Proxy_Routes::all() ) )->register_routes();
				( new Rest\Outbox_Controller( $hand_over ) )->register_routes();
				( new Inbound\Inbound_Route( $sidecar ) )->register_routes();
				( new Rest\Inbound_Events_Controller() )->register_routes();
				( new Rest\Site_Health_Controller( $site_health ) )->register_routes();
			}
		);

		add_action( 'init', array( Lifecycle::class, 'maybe_upgrade' ), 5 );
	}
}
