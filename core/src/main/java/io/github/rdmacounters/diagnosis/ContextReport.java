package io.github.rdmacounters.diagnosis;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A device as the verbs backend sees it when opened (and closed again).
 *
 * @param listed whether {@code ibv_get_device_list} lists it
 * @param opened whether {@code ibv_open_device} and {@code ibv_query_device} succeeded
 * @param error why not, or {@code null}
 * @param extended whether the context is an extended one, {@code null} on the simulated
 * backend
 * @param opsTableSize {@code struct verbs_context.sz}, or {@code null}
 * @param missingOps the ops the binding uses that the context lacks, each with why
 * @param managedFlowSteering whether the device has
 * {@code IBV_DEVICE_MANAGED_FLOW_STEERING}, or {@code null} if not opened
 * @param vendorId the PCI vendor id, or {@code null}
 * @param vendorPartId the vendor's part id, or {@code null}
 * @since 0.1.0
 */
public record ContextReport(boolean listed, boolean opened, @Nullable String error, @Nullable Boolean extended,
		@Nullable Long opsTableSize, List<String> missingOps, @Nullable Boolean managedFlowSteering,
		@Nullable Integer vendorId, @Nullable Integer vendorPartId) {

	public ContextReport {
		missingOps = List.copyOf(missingOps);
	}

	static ContextReport notOpened(boolean listed, String error) {
		return new ContextReport(listed, false, error, null, null, List.of(), null, null, null);
	}

}
