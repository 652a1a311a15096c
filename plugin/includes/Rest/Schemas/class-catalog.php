<?php
/**
 * The answers PHP owns, by the name of their TypeScript type.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * `npm run contracts` (scripts/lib/view-types.ts) writes plugin/admin/src/api/generated/views.ts
 * from this list; the controllers use the same methods for their routes' schemas.
 */
final class Catalog {

	/**
	 * Each answer's schema, by TypeScript type name.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function all(): array {
		return array(
			'ServiceAccountState'        => Service_Account::state(),
			'CreatedAccount'             => Service_Account::created_account(),
			'CreatedPassword'            => Service_Account::created_password(),
			'RevokedPassword'            => Service_Account::revoked_password(),
			'CheckReport'                => Service_Account::check_report(),
			'WideningState'              => Service_Account::widening(),
			'InboundEvent'               => Inbound_Events::event(),
			'InboundEventPage'           => Inbound_Events::page(),
			'InboundReceipt'             => Inbound_Receipt::receipt(),
			'Me'                         => Me::caller(),
			'OutboxState'                => Outbox::state(),
			'PaidOrder'                  => Paid_Order::order(),
			'PaidOrderIndexState'        => Paid_Order_Index::state(),
			'SiteHealthResult'           => Site_Health_Result::result(),
			'SidecarStatusFromWordPress' => Sidecar::status(),
			'SidecarNoticeReceipt'       => Sidecar::notice_receipt(),
		);
	}
}
