package io.github.rdmacounters.diagnosis;

import java.nio.file.Path;

/**
 * The host diagnosis on the simulated backend and its sysfs tree.
 *
 * @author rdma-counters
 */
class SimulatedHostDiagnosisTests extends AbstractHostDiagnosisTests {

	@Override
	ScriptedHost host(Path temp) {
		return new SimulatedHost(temp);
	}

}
