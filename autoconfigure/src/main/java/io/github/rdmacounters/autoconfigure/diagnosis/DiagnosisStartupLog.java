package io.github.rdmacounters.autoconfigure.diagnosis;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.core.UnavailableCounters;
import io.github.rdmacounters.diagnosis.DeviceReport;
import io.github.rdmacounters.diagnosis.DiagnosisReport;
import io.github.rdmacounters.diagnosis.HostDiagnosis;
import io.github.rdmacounters.diagnosis.PortReport;

/**
 * Logs at INFO, once the application's beans exist, why the counter sets of a device that
 * could not be opened cannot count: the host diagnosis's verdicts for the device's ports
 * (or the host's summary when the device is not there at all). The diagnosis runs only
 * when such a device exists, and never probes.
 *
 * @author rdma-counters
 */
final class DiagnosisStartupLog implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(DiagnosisStartupLog.class);

	private final ObjectProvider<HostDiagnosis> diagnosis;

	private final ObjectProvider<RdmaRegistry> registry;

	DiagnosisStartupLog(ObjectProvider<HostDiagnosis> diagnosis, ObjectProvider<RdmaRegistry> registry) {
		this.diagnosis = diagnosis;
		this.registry = registry;
	}

	@Override
	public void afterSingletonsInstantiated() {
		RdmaRegistry devices = this.registry.getIfAvailable();
		if (devices == null || !logger.isInfoEnabled()) {
			return;
		}
		List<ManagedDevice> cannotCount = devices.devices()
			.stream()
			.filter((device) -> !failed(device).isEmpty())
			.toList();
		if (cannotCount.isEmpty()) {
			return;
		}
		DiagnosisReport report;
		try {
			report = this.diagnosis.getObject().run();
		}
		catch (RuntimeException | LinkageError ex) {
			// a log line never fails the start
			logger.warn("The host diagnosis of the RDMA devices failed: " + ex);
			report = null;
		}
		for (ManagedDevice device : cannotCount) {
			logger.info(line(device, report));
		}
	}

	// Every set of a device that could not be opened, or the sets created unavailable
	private static List<CounterSet> failed(ManagedDevice device) {
		if (!device.isAvailable()) {
			return device.counterSets();
		}
		return device.counterSets().stream().filter((set) -> set.counters() instanceof UnavailableCounters).toList();
	}

	static String line(ManagedDevice device, @Nullable DiagnosisReport report) {
		List<CounterSet> failed = failed(device);
		List<String> sets = failed.stream().map(CounterSet::name).toList();
		RuntimeException cause = device.unavailabilityCause();
		if (cause == null && !failed.isEmpty() && failed.get(0).counters() instanceof UnavailableCounters unavailable) {
			cause = unavailable.cause();
		}
		StringBuilder line = new StringBuilder("Counter sets ").append(sets)
			.append(" cannot count on ")
			.append(device.name());
		if (cause != null) {
			line.append(" (").append(cause.getMessage()).append(')');
		}
		if (report == null) {
			return line.append('.').toString();
		}
		DeviceReport found = report.device(device.name());
		List<String> verdicts = new ArrayList<>();
		if (found != null) {
			for (PortReport port : found.ports()) {
				verdicts
					.add("port " + port.port() + " " + port.flowCounters().text() + ", " + port.portCounters().text());
			}
		}
		String verdict = verdicts.isEmpty() ? report.summary() : String.join("; ", verdicts);
		line.append(". Host diagnosis: ")
			.append(verdict.endsWith(".") ? verdict.substring(0, verdict.length() - 1) : verdict)
			.append(". The whole report: java -jar rdma-counters-diagnosis.jar --probe, or the rdmadiagnosis "
					+ "actuator endpoint (add rdmadiagnosis to management.endpoints.web.exposure.include).");
		return line.toString();
	}

}
