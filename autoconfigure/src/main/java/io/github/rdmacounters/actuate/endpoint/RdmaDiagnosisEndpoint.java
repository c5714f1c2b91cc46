package io.github.rdmacounters.actuate.endpoint;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.github.rdmacounters.diagnosis.DiagnosisReport;
import io.github.rdmacounters.diagnosis.HostDiagnosis;

/**
 * {@link Endpoint @Endpoint} that serves the host diagnosis: what will count on this host
 * and why not, the report {@code java -jar rdma-counters-diagnosis.jar --json} prints
 * ({@code docs/diagnosis.md} documents its shape). A read never probes: it creates
 * nothing on the host. An endpoint of its own rather than a selector of {@code rdma},
 * whose selector is the counter set name.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@Endpoint(id = "rdmadiagnosis")
public class RdmaDiagnosisEndpoint {

	private final HostDiagnosis diagnosis;

	/**
	 * Create an endpoint.
	 * @param diagnosis the diagnosis to run at each read
	 */
	public RdmaDiagnosisEndpoint(HostDiagnosis diagnosis) {
		this.diagnosis = diagnosis;
	}

	/**
	 * Diagnose the host.
	 * @return the report
	 */
	@ReadOperation
	public DiagnosisReport diagnosis() {
		return this.diagnosis.run();
	}

}
