package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.sysfs.SysfsTree;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every verdict of the host diagnosis, stated once and run on each backend with a host
 * scripted for it: mlx5 RoCE, mlx5 InfiniBand, a provider without counters, an old
 * kernel, no capability, no RDMA stack and a restricted physical function, each without
 * and with {@code --probe}.
 *
 * @author rdma-counters
 */
abstract class AbstractHostDiagnosisTests {

	@TempDir
	Path temp;

	ScriptedHost host;

	abstract ScriptedHost host(Path temp);

	@BeforeEach
	void prepare() {
		this.host = host(this.temp);
	}

	@AfterEach
	void release() {
		this.host.close();
	}

	private DiagnosisReport diagnose(boolean probe) {
		return this.host.diagnosis().probe(probe).build().run();
	}

	@Test
	void mlx5RoceCountsFlowsAndPortsAndSaysRoceIsNotSeenByFlows() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		DiagnosisReport report = diagnose(false);
		PortReport port = port(report, "mlx5_1", 1);
		assertThat(port.roce()).isTrue();
		assertThat(port.gidTypes()).contains("RoCE v2");
		assertThat(port.flowCounters().text()).isEqualTo("flow counters: yes (" + Verdicts.ROCE_NOTE + ")");
		assertThat(port.portCounters().text()).isEqualTo("port counters: yes");
		assertThat(port(report, "mlx5_1", 2).flowCounters().notes()).contains(Verdicts.ROCE_NOTE,
				"the port is DOWN: flows count once it is ACTIVE");
		assertThat(report.device("mlx5_1").netdevs()).containsExactly("ens1f0np0");
		assertThat(report.device("mlx5_1").verbs().opened()).isTrue();
		assertThat(report.summary()).isEqualTo(
				"1 device, 2 ports: flow counters on 2 (mlx5_1/1, mlx5_1/2), port counters on 2 (mlx5_1/1, mlx5_1/2)");
		assertThat(report.probed()).isFalse();
		assertThat(port.probe()).isEmpty();
		assertThat(report.findings()).noneMatch((finding) -> Finding.PROBLEM.equals(finding.severity()));
		assertThat(report.device("mlx5_1").findings())
			.anyMatch((finding) -> finding.what().startsWith("RoCE is enabled"));
	}

	@Test
	void sysfsRootThatCannotBeListedIsAProblemNotAHostWithoutRdma() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		SysfsTree unlistable = new SysfsTree() {

			@Override
			public List<String> list(String path) throws IOException {
				throw new AccessDeniedException("/sys/class/infiniband");
			}

			@Override
			public String read(String path) throws IOException {
				throw new AccessDeniedException("/sys/class/infiniband/" + path);
			}

			@Override
			public String describe() {
				return "/sys/class/infiniband";
			}

		};
		DiagnosisReport report = this.host.diagnosis().sysfsTree(unlistable).build().run();
		assertThat(report.findings()).filteredOn((finding) -> Finding.PROBLEM.equals(finding.severity()))
			.anySatisfy((finding) -> {
				assertThat(finding.what()).isEqualTo("Cannot list /sys/class/infiniband: permission denied");
				assertThat(finding.action())
					.startsWith("Run the diagnosis as a user that can list /sys/class/infiniband");
			});
		assertThat(report.summary()).doesNotStartWith("No RDMA stack").doesNotStartWith("No RDMA device");
		if (report.devices().isEmpty()) {
			assertThat(report.summary()).startsWith("Cannot list /sys/class/infiniband (permission denied)");
		}
	}

	@Test
	void mlx5RoceProbeCreatesAndDestroysEverythingACounterSetNeeds() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		DiagnosisReport report = diagnose(true);
		PortReport port = port(report, "mlx5_1", 1);
		assertThat(port.probe()).allMatch((step) -> ProbeStep.OK.equals(step.outcome()), "every step ok");
		assertThat(port.probe()).extracting(ProbeStep::step)
			.startsWith("ibv_open_device")
			.containsSubsequence("ibv_create_counters", "ibv_attach_counters_point_flow", "ibv_create_flow",
					"ibv_destroy_flow", "ibv_destroy_counters", "ibv_close_device");
		assertThat(port.flowCounters().answer()).isEqualTo(Verdict.YES);
		assertThat(port.flowCounters().notes())
			.startsWith("a counted don't-trap flow was created and destroyed by --probe");
		assertThat(report.probed()).isTrue();
	}

	@Test
	void mlx5InfiniBandCountsPortsButNoFlows() {
		this.host.mlx5InfiniBand("mlx5_0");
		DiagnosisReport report = diagnose(true);
		PortReport port = port(report, "mlx5_0", 1);
		assertThat(port.linkLayer()).isEqualTo("InfiniBand");
		assertThat(port.roce()).isFalse();
		assertThat(port.flowCounters().text()).isEqualTo(
				"flow counters: no, because the port's link layer is InfiniBand and flows match Ethernet frames");
		assertThat(port.portCounters().answersYes()).isTrue();
		assertThat(port.probe()).singleElement()
			.satisfies((step) -> assertThat(step.outcome()).isEqualTo(ProbeStep.SKIPPED));
	}

	@Test
	void providerWithoutCountersFailsTheProbeWithEopnotsupp() {
		this.host.withoutCounters("bnxt_re0");
		DiagnosisReport report = diagnose(true);
		PortReport port = port(report, "bnxt_re0", 1);
		assertThat(port.flowCounters().answer()).isEqualTo(Verdict.NO);
		assertThat(port.flowCounters().because().get(0)).startsWith(
				"--probe: ibv_create_counters failed with EOPNOTSUPP (95) Operation not supported: only the mlx5 "
						+ "provider implements flow counters");
		assertThat(port.probe()).filteredOn((step) -> step.failed())
			.extracting(ProbeStep::step)
			.containsExactly("ibv_create_counters");
		assertThat(port.probe()).filteredOn((step) -> ProbeStep.NOT_REACHED.equals(step.outcome()))
			.extracting(ProbeStep::step)
			.containsExactly("ibv_attach_counters_point_flow", "ibv_create_flow");
		assertThat(port.portCounters().answersYes()).isTrue();
	}

	@Test
	void providerWithoutCountersWithoutProbe() {
		this.host.withoutCounters("bnxt_re0");
		Verdict flow = port(diagnose(false), "bnxt_re0", 1).flowCounters();
		if (this.host.knowsDrivers()) {
			assertThat(flow.text()).isEqualTo("flow counters: no, because only the mlx5 provider implements flow "
					+ "counters and the device's driver is bnxt_en");
		}
		else {
			assertThat(flow.answer()).isEqualTo(Verdict.UNKNOWN);
			assertThat(flow.because()).singleElement().asString().contains("run with --probe");
		}
	}

	@Test
	void oldKernelRefusesDontTrapCounting() {
		this.host.oldKernel();
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		DiagnosisReport report = diagnose(false);
		assertThat(report.kernel().release()).isEqualTo(ScriptedHost.OLD_KERNEL);
		assertThat(report.kernel().dontTrapCounting()).isFalse();
		assertThat(port(report, "mlx5_1", 1).flowCounters().text())
			.startsWith("flow counters: no, because Linux 5.4.0-150-generic is older than 5.8, which refuses a counted "
					+ "don't-trap flow with EINVAL");
		assertThat(report.findings())
			.anyMatch((finding) -> finding.what().equals("Linux 5.4.0-150-generic is older " + "than 5.8")
					&& finding.action().startsWith("Run Linux 5.8 or later"));
	}

	@Test
	void oldKernelProbeFailsTheFlowWithEinval() {
		this.host.oldKernel();
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		PortReport port = port(diagnose(true), "mlx5_1", 1);
		assertThat(port.flowCounters().because().get(0))
			.isEqualTo("--probe: ibv_create_flow failed with EINVAL (22) Invalid argument: a counted don't-trap flow "
					+ "needs Linux 5.8 or later (commit 8e14c75c999a); older kernels refuse the count action of a "
					+ "don't-trap rule with EINVAL");
		assertThat(port.probe()).filteredOn(ProbeStep::failed).singleElement().satisfies((step) -> {
			assertThat(step.errno()).isEqualTo(22);
			assertThat(step.errnoName()).isEqualTo("EINVAL");
		});
		assertThat(port.probe()).extracting(ProbeStep::step).contains("ibv_destroy_counters", "ibv_close_device");
	}

	@Test
	void withoutCapNetRawNoFlowCounters() {
		this.host.capabilities(ScriptedHost.WITHOUT_NET_RAW);
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		DiagnosisReport report = diagnose(false);
		assertThat(report.process().capNetRaw()).isFalse();
		assertThat(report.process().capNetAdmin()).isTrue();
		assertThat(port(report, "mlx5_1", 1).flowCounters().text())
			.isEqualTo("flow counters: no, because the process lacks CAP_NET_RAW");
		assertThat(port(report, "mlx5_1", 1).portCounters().answersYes()).isTrue();
		assertThat(report.findings()).anyMatch((finding) -> finding.what().startsWith("The process lacks CAP_NET_RAW")
				&& finding.action().contains("setcap cap_net_raw+ep"));
	}

	@Test
	void withoutCapNetRawTheProbeIsRefusedWithEperm() {
		this.host.capabilities(ScriptedHost.WITHOUT_NET_RAW);
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		this.host.denyRawPackets();
		PortReport port = port(diagnose(true), "mlx5_1", 1);
		assertThat(port.flowCounters().because()).first()
			.asString()
			.contains("failed with EPERM (1) Operation not permitted: raw packet queue pairs and steering rules need "
					+ "CAP_NET_RAW");
		assertThat(port.flowCounters().because()).contains("the process lacks CAP_NET_RAW");
	}

	@Test
	void noRdmaStackSaysWhatToLoad() {
		this.host.noRdmaStack();
		DiagnosisReport report = diagnose(true);
		assertThat(report.devices()).isEmpty();
		assertThat(report.verbs().kernelStack()).isFalse();
		assertThat(report.summary()).startsWith("No RDMA stack: the kernel has no RDMA stack, so nothing can count. "
				+ "Load the RDMA kernel modules: ib_uverbs and the NIC's driver (modprobe mlx5_ib");
		assertThat(report.findings()).first().satisfies((finding) -> {
			assertThat(finding.severity()).isEqualTo(Finding.PROBLEM);
			assertThat(finding.what()).contains("ENOSYS (38)");
		});
	}

	@Test
	void restrictedPhysicalFunctionHasNoPortCounters() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		this.host.restrictCounterFiles("mlx5_1", 1, false);
		DiagnosisReport report = diagnose(false);
		PortReport port = port(report, "mlx5_1", 1);
		assertThat(port.portCounters().text()).isEqualTo("port counters: no, because every counter file answers "
				+ "EINVAL, as on a restricted physical function (DGX/HGX hosts; node_exporter #3434, #3823)");
		assertThat(port.counterFiles().readable()).isZero();
		assertThat(port.counterFiles().invalidArgument()).contains("counters/port_rcv_data",
				"hw_counters/out_of_buffer");
		assertThat(port.flowCounters().answersYes()).isTrue();
		assertThat(port(report, "mlx5_1", 2).portCounters().answersYes()).isTrue();
		assertThat(report.device("mlx5_1").findings()).anyMatch((finding) -> finding.subject().equals("mlx5_1 port 1")
				&& finding.what().contains("counter files answer EINVAL")
				&& finding.action().contains("rdma.port-counters.exclude"));
	}

	@Test
	void restrictedHwCountersLeaveThePortCounters() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		this.host.restrictCounterFiles("mlx5_1", 1, true);
		PortReport port = port(diagnose(false), "mlx5_1", 1);
		assertThat(port.portCounters().answer()).isEqualTo(Verdict.YES);
		assertThat(port.portCounters().notes()).singleElement().asString().endsWith("counter files answer EINVAL");
		assertThat(port.counterFiles().invalidArgument()).allMatch((file) -> file.startsWith("hw_counters/"))
			.contains("hw_counters/out_of_buffer");
		assertThat(port.counterFiles().readable()).isPositive();
	}

	@Test
	void counterFileThatHangsIsReportedTimedOut() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		this.host.hangCounterFile("mlx5_1", 1, "hw_counters/out_of_buffer");
		DiagnosisReport report = this.host.diagnosis().fileTimeout(Duration.ofMillis(300)).build().run();
		PortReport port = port(report, "mlx5_1", 1);
		assertThat(port.counterFiles().timedOut()).contains("hw_counters/out_of_buffer");
		assertThat(port.counterFiles().invalidArgument()).isEmpty();
		assertThat(port.counterFiles().readable()).isPositive();
		assertThat(report.device("mlx5_1").findings()).anyMatch((finding) -> Finding.PROBLEM.equals(finding.severity())
				&& finding.what().contains("counter files time out: hw_counters/out_of_buffer"));
	}

	@Test
	void textAndJsonCarryTheVerdicts() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		this.host.mlx5InfiniBand("mlx5_0");
		DiagnosisReport report = diagnose(false);
		String text = ReportText.write(report);
		assertThat(text).contains("Device mlx5_0: ", "Device mlx5_1: ",
				"    flow counters: no, because the port's link " + "layer is InfiniBand", "    port counters: yes",
				"Findings:");
		String json = ReportJson.write(report);
		assertThat(json).startsWith("{\n  \"schemaVersion\": 1,")
			.contains("\"flowCounters\": {", "\"answer\": \"no\",",
					"\"text\": \"flow counters: no, because the port's link layer is InfiniBand")
			.contains("\"linkLayer\": \"InfiniBand\"");
	}

	static PortReport port(DiagnosisReport report, String device, int port) {
		DeviceReport found = report.device(device);
		assertThat(found).as("device " + device + " in " + report.devices().stream().map(DeviceReport::name).toList())
			.isNotNull();
		PortReport portReport = found.port(port);
		assertThat(portReport).as(device + " port " + port).isNotNull();
		return portReport;
	}

	static List<String> steps(PortReport port) {
		return port.probe().stream().map(ProbeStep::step).toList();
	}

}
