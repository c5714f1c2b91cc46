package io.github.rdmacounters.diagnosis;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What will count on this host and why not: the report of {@link HostDiagnosis}, printed
 * as text or JSON by {@link DiagnosisCommand} and served by the application's endpoint.
 * Its JSON shape is versioned by {@link #schemaVersion()} and documented in
 * {@code docs/diagnosis.md}.
 *
 * @param schemaVersion the version of this shape: {@value #SCHEMA_VERSION}
 * @param generatedAt when the report was made, ISO-8601
 * @param probed whether {@code --probe} created and destroyed verbs objects
 * @param summary the verdict in one line
 * @param kernel the running kernel
 * @param process the process's rights and namespace
 * @param verbs the verbs backend
 * @param netlink whether RDMA netlink answered
 * @param devices the RDMA devices, by name
 * @param findings what was found about the host
 * @since 0.1.0
 */
public record DiagnosisReport(int schemaVersion, String generatedAt, boolean probed, String summary,
		KernelReport kernel, ProcessReport process, VerbsReport verbs, NetlinkReport netlink,
		List<DeviceReport> devices, List<Finding> findings) {

	/** The version of the JSON shape this class writes. */
	public static final int SCHEMA_VERSION = 1;

	public DiagnosisReport {
		devices = List.copyOf(devices);
		findings = List.copyOf(findings);
	}

	/**
	 * Return a device by name.
	 * @param name the device name
	 * @return the device, or {@code null}
	 */
	public @Nullable DeviceReport device(String name) {
		return this.devices.stream().filter((device) -> device.name().equals(name)).findFirst().orElse(null);
	}

	/**
	 * Whether RDMA netlink answered.
	 *
	 * @param available whether a {@code NETLINK_RDMA} socket could be opened and asked
	 * @param error why not, or {@code null}
	 */
	public record NetlinkReport(boolean available, @Nullable String error) {

	}

}
