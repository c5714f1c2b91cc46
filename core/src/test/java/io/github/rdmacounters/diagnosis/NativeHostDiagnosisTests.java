package io.github.rdmacounters.diagnosis;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.ethtool.EthtoolStatisticsReader;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The host diagnosis through the native binding, on the fake libibverbs and a sysfs tree
 * on the file system; the extension checks that the probe left no native object alive and
 * made no misuse.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class NativeHostDiagnosisTests extends AbstractHostDiagnosisTests {

	@Override
	ScriptedHost host(Path temp) {
		return new FakeLibibverbsHost(temp);
	}

	@Test
	void probeDestroysEveryObjectAndReportsTheQueuePairSteps() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		PortReport port = port(this.host.diagnosis().probe(true).build().run(), "mlx5_1", 1);
		assertThat(steps(port)).containsExactly("ibv_open_device", "ibv_alloc_pd", "ibv_create_cq", "ibv_create_qp",
				"ibv_modify_qp", "ibv_create_counters", "ibv_attach_counters_point_flow", "ibv_create_flow",
				"ibv_destroy_flow", "ibv_destroy_counters", "ibv_close_device");
		assertThat(FakeVerbs.get().liveObjects()).isZero();
	}

	@Test
	void probeThatFailsAtTheProtectionDomainSaysWhichStepsWereNotReached() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		FakeVerbs.get().failNext("ibv_alloc_pd", Errno.ENOMEM);
		DiagnosisReport report = this.host.diagnosis().probe(true).build().run();
		PortReport port = port(report, "mlx5_1", 1);
		assertThat(port.probe()).extracting((step) -> step.step() + " " + step.outcome())
			.containsExactly("ibv_open_device ok", "ibv_alloc_pd failed", "ibv_create_cq not-reached",
					"ibv_create_qp not-reached", "ibv_modify_qp not-reached", "ibv_create_counters not-reached",
					"ibv_attach_counters_point_flow not-reached", "ibv_create_flow not-reached", "ibv_close_device ok");
		assertThat(port.flowCounters().because()).first()
			.isEqualTo("--probe: ibv_alloc_pd failed with ENOMEM (12) Cannot allocate memory");
		// the fault was for the next call only: port 2, probed after port 1, got
		// everything
		assertThat(port(report, "mlx5_1", 2).probe()).allMatch((step) -> ProbeStep.OK.equals(step.outcome()));
	}

	@Test
	void netdevWithoutEthtoolStatisticsIsReportedUnreachable() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		DiagnosisReport report = this.host.diagnosis().ethtool(EthtoolStatisticsReader::open).build().run();
		// this host has no interface of that name: the kernel's SIOCETHTOOL answers
		// ENODEV
		assertThat(report.device("mlx5_1").ethtool()).singleElement().satisfies((ethtool) -> {
			assertThat(ethtool.netdev()).isEqualTo("ens1f0np0");
			assertThat(ethtool.reachable()).isFalse();
			assertThat(ethtool.error()).contains("ENODEV");
		});
	}

	@Test
	void deviceReportsItsDriverPciFunctionAndOpTable() {
		this.host.mlx5Roce("mlx5_1", "ens1f0np0");
		DiagnosisReport report = this.host.diagnosis().build().run();
		DeviceReport device = report.device("mlx5_1");
		assertThat(device.driver()).isEqualTo("mlx5_core");
		assertThat(device.pciAddress()).isEqualTo("0000:41:00.0");
		assertThat(device.firmware()).isNotBlank();
		assertThat(device.verbs().extended()).isTrue();
		assertThat(device.verbs().opsTableSize()).isPositive();
		assertThat(device.verbs().managedFlowSteering()).isTrue();
		assertThat(report.verbs().path()).endsWith(".so");
		assertThat(report.verbs().bindingSizes()).containsEntry("struct ibv_context", 328);
		assertThat(report.process().devInfiniband()).extracting(ProcessReport.DeviceFile::name)
			.containsExactly("uverbs0");
		assertThat(report.process().netNamespace()).isEqualTo("net:[4026531840]");
		assertThat(FakeVerbs.get().liveObjects()).isZero();
	}

}
