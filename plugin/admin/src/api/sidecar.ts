/**
 * The sidecar's status as WordPress sees it through the signed channel
 * (plugin/includes/Rest/class-sidecar-status-controller.php, sidecar/src/http/routes/status.ts).
 */
import type { StatusView } from '../../../../sidecar/src/contracts/views';
import { request } from './client';
import type { SidecarStatusFromWordPress } from './generated/views';

/** The sidecar's own status, with what WordPress adds: it reached the sidecar, at this URL (else the call fails). */
export type SidecarStatus = StatusView & SidecarStatusFromWordPress;

export function getSidecarStatus(): Promise< SidecarStatus > {
	return request< SidecarStatus >( 'GET', '/sidecar/status' );
}
