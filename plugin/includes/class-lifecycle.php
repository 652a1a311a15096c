<?php
/**
 * Activation, deactivation and version-gated upgrades.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

use ServiceIntegration\Support\Option_Lock;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Activation runs once; upgrades run on the first request after a version change,
 * because activation hooks do not run when a plugin is updated in place. Built by Plugin (the
 * composition root) over the stores whose tables it creates, the processing it schedules and
 * the lock that lets one request at a time upgrade; Plugin calls activate() and
 * maybe_upgrade().
 */
final class Lifecycle {

	const VERSION_OPTION = 'service_integration_version';

	/**
	 * The lifecycle of the stores and jobs Plugin built.
	 *
	 * @param Outbound\Outbox                 $outbox            The outbox.
	 * @param Inbound\Inbound_Store           $inbound_store     The inbound events.
	 * @param Inbound\Inbound_Processor       $inbound_processor Schedules the stored events' processing.
	 * @param Commerce\Paid_Order_Index_Walk  $paid_order_walk   The paid-orders index's walk (its install and jobs).
	 * @param Manufacturing\Idempotency_Store $idempotency_store The idempotency keys.
	 * @param Option_Lock                     $upgrade_lock      One upgrade at a time (UPGRADE_LOCK_OPTION).
	 */
	public function __construct(
		private Outbound\Outbox $outbox,
		private Inbound\Inbound_Store $inbound_store,
		private Inbound\Inbound_Processor $inbound_processor,
		private Commerce\Paid_Order_Index_Walk $paid_order_walk,
		private Manufacturing\Idempotency_Store $idempotency_store,
		private Option_Lock $upgrade_lock
	) {
	}

	/**
	 * Activation (Plugin::activate).
	 */
	public function activate(): void {
		$this->upgrade( true );
		self::schedule_jobs( $this->inbound_processor, $this->paid_order_walk );
		flush_rewrite_rules( false );
	}

	/**
	 * Deactivation keeps all data (roles, records, outbox); uninstall.php removes it. It
	 * removes every job schedule_jobs() makes, so nothing runs while the code is off.
	 */
	public static function deactivate(): void {
		Outbound\Hand_Over::unschedule();
		Inbound\Inbound_Processor::unschedule();
		Commerce\Paid_Order_Index_Walk::unschedule();
		flush_rewrite_rules( false );
	}

	/**
	 * Every job the plugin needs, scheduled at activation, in the activation's own request:
	 *
	 * - the outbox hand-over (WP-Cron, every minute), its first run due now, so events that
	 *   waited in the outbox while the plugin was off go out at the next cron run;
	 * - inbound processing: the five-minute sweep (WP-Cron), and a run when the next stored
	 *   event is due, so events stored before deactivation are processed at the next cron run;
	 * - the paid-orders index walk and its daily check (Action Scheduler, when WooCommerce is
	 *   there; install() has started the walk).
	 *
	 * The plugin's hooks are not registered in that request (it was inactive when the request
	 * began), so the recurrences are added here first: WordPress refuses to schedule an event
	 * on a recurrence it does not know. Later requests check the recurring ones on `init` too.
	 *
	 * @param Inbound\Inbound_Processor      $inbound_processor Schedules the stored events' processing.
	 * @param Commerce\Paid_Order_Index_Walk $paid_order_walk   Schedules the paid-orders index's walk.
	 */
	public static function schedule_jobs( Inbound\Inbound_Processor $inbound_processor, Commerce\Paid_Order_Index_Walk $paid_order_walk ): void {
		add_filter( 'cron_schedules', array( Outbound\Hand_Over::class, 'add_schedule' ) ); // phpcs:ignore WordPress.WP.CronInterval.ChangeDetected -- Hand_Over::add_schedule(): every minute (annotated where it is registered).
		add_filter( 'cron_schedules', array( Inbound\Inbound_Processor::class, 'add_schedule' ) ); // phpcs:ignore WordPress.WP.CronInterval.ChangeDetected -- Inbound_Processor::add_schedule(): every 5 minutes (annotated where it is registered).
		Outbound\Hand_Over::schedule( time() );
		$inbound_processor->schedule();
		$paid_order_walk->schedule();
	}

	/** The lock that lets one request at a time run the upgrade, and how long before it counts as abandoned. */
	const UPGRADE_LOCK_OPTION = 'service_integration_upgrade_lock';
	const UPGRADE_LOCK_TTL    = 300;

	/**
	 * The version options, autoloaded: this check runs on every request, and an option stored
	 * with autoload off costs a SELECT of its own each time (get_option() reads it from the
	 * database when wp_load_alloptions() does not hold it). Autoloaded, they come with the one
	 * query that loads all autoloaded options, which WordPress makes anyway.
	 */
	const AUTOLOADED_OPTIONS = array( self::VERSION_OPTION, Outbound\Outbox::DB_VERSION_OPTION, Inbound\Inbound_Store::DB_VERSION_OPTION, Commerce\Paid_Order_Index::DB_VERSION_OPTION, Manufacturing\Idempotency_Store::DB_VERSION_OPTION );

	/**
	 * Runs install steps when a stored version differs from the code's, or when the role is
	 * missing (activation did not run, e.g. a must-use or network install).
	 *
	 * Reads the versions from the autoloaded options only, so an up-to-date site makes no
	 * query here. A version missing from them (a new site, a changed version, or a site from
	 * 0.1.0 and earlier, which stored them with autoload off) runs install(), which switches
	 * them to autoload: that upgrade happens once, on the first request after the update.
	 */
	public function maybe_upgrade(): void {
		$this->upgrade( false );
	}

	/**
	 * The one path that creates and upgrades what the plugin stores (role, tables, options), for
	 * activation and for the first request after an update alike.
	 *
	 * Requests run side by side (PHP-FPM workers, the cron runner): each would see the old
	 * versions it loaded at its start and migrate again. One takes the lock; the others wait
	 * a little, then go on without migrating (the holder is doing it). The holder reads the
	 * versions again from the database, as a request that waited for it has finished it.
	 * Activation runs every step even when the versions are current, and even without the lock
	 * (a lock left by a crashed request must not stop it; every step is idempotent).
	 *
	 * @param bool $activation Whether the plugin is being activated.
	 */
	private function upgrade( bool $activation ): void {
		if ( ! $activation && self::is_current() ) {
			return;
		}
		// A lock the database could not take is not held: a later request upgrades.
		$locked = true === $this->upgrade_lock->acquire( self::UPGRADE_LOCK_TTL, 5.0 );
		if ( ! $locked && ! $activation ) {
			return;
		}
		try {
			wp_cache_delete( 'alloptions', 'options' );
			if ( $activation || ! self::is_current() ) {
				$this->install( $activation );
			}
		} finally {
			if ( $locked ) {
				$this->upgrade_lock->release();
			}
		}
	}

	/**
	 * Whether the stored versions are the code's and the role exists (from the autoloaded options).
	 */
	private static function is_current(): bool {
		$stored = wp_load_alloptions();
		return ( $stored[ self::VERSION_OPTION ] ?? null ) === VERSION
			&& ( $stored[ Outbound\Outbox::DB_VERSION_OPTION ] ?? null ) === Outbound\Outbox::DB_VERSION
			&& ( $stored[ Inbound\Inbound_Store::DB_VERSION_OPTION ] ?? null ) === Inbound\Inbound_Store::DB_VERSION
			&& ( $stored[ Commerce\Paid_Order_Index::DB_VERSION_OPTION ] ?? null ) === Commerce\Paid_Order_Index::DB_VERSION
			&& ( $stored[ Manufacturing\Idempotency_Store::DB_VERSION_OPTION ] ?? null ) === Manufacturing\Idempotency_Store::DB_VERSION
			&& null !== get_role( Security\Service_Role::ROLE );
	}

	/**
	 * Idempotent install steps, called explicitly: on activation the plugin's
	 * own hooks are not registered yet, so an action would reach nobody.
	 *
	 * @param bool $activation Whether the plugin is being activated: orders may have been paid
	 *                         while it was off, so the paid-orders index is walked again.
	 */
	private function install( bool $activation ): void {
		Security\Service_Role::install();
		$this->outbox->install();
		$this->inbound_store->install();
		$this->idempotency_store->install();
		Commerce\Paid_Moment_Recorder::install();
		$this->paid_order_walk->install( $activation );
		$administrator = get_role( 'administrator' );
		if ( $administrator ) {
			foreach ( Manufacturing\Manufacturing_Order_Type::ADMIN_CAPABILITIES as $cap ) {
				$administrator->add_cap( $cap );
			}
			// Reading paid orders is the integration's job; administrators see them in WooCommerce.
		}
		update_option( self::VERSION_OPTION, VERSION, true );

		/*
		 * update_option() leaves autoload as it is when the value does not change, so options an
		 * earlier version stored with autoload off are switched here (WordPress 6.4+).
		 */
		wp_set_option_autoload_values( array_fill_keys( self::AUTOLOADED_OPTIONS, true ) );
	}
}
