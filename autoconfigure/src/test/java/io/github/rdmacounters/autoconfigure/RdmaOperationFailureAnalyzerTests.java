package io.github.rdmacounters.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;

import io.github.rdmacounters.core.CounterSetCreationException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RdmaOperationFailureAnalyzer}: what each errno of a verb means on real
 * kernels and libraries, and which property to change.
 *
 * @author rdma-counters
 */
class RdmaOperationFailureAnalyzerTests {

	private static Throwable startupFailure(String verb, int errno) {
		RdmaOperationException cause = new RdmaOperationException(verb, errno, "flow 'tcp dst 4420' on mlx5_0 port 1");
		return new BeanCreationException("nvme", "Counter set failed",
				new CounterSetCreationException("nvme", "mlx5_0", 1, cause));
	}

	@Test
	void einvalOnCreateFlowNamesTheKernelRequirementForCountedDontTrapFlows() {
		FailureAnalysisAssert.of(startupFailure("ibv_create_flow", Errno.EINVAL))
			.analyzedBy(RdmaOperationFailureAnalyzer.class)
			.descriptionContains("Creating counter set 'nvme' (rdma.counter-sets.nvme) on mlx5_0 port 1",
					"ibv_create_flow failed: EINVAL (22)", "Linux 5.8 or later", "8e14c75c999a")
			.actionContains("uname -r", "rdma.counter-sets.nvme.flow");
	}

	@Test
	void enomemOnCreateFlowNamesThePriorityLimitAndTheTableNotManagedFlowSteering() {
		FailureAnalysisAssert analysis = FailureAnalysisAssert.of(startupFailure("ibv_create_flow", Errno.ENOMEM))
			.analyzedBy(RdmaOperationFailureAnalyzer.class)
			.descriptionContains("ENOMEM (12)", "priorities", "table is full")
			.actionContains("rdma.counter-sets.nvme.flow.priority", "fewer counter sets");
		assertThat(analysis.analysis().getDescription()).doesNotContain("MANAGED_FLOW_STEERING");
		assertThat(analysis.analysis().getAction()).doesNotContain("MANAGED_FLOW_STEERING");
	}

	@Test
	void enosysFromOldDummyOpsGetsTheSameMlx5HintAsEopnotsupp() {
		for (String verb : new String[] { "ibv_create_counters", "ibv_attach_counters_point_flow", "ibv_read_counters",
				"ibv_destroy_counters" }) {
			String enosys = FailureAnalysisAssert.of(startupFailure(verb, Errno.ENOSYS))
				.analyzedBy(RdmaOperationFailureAnalyzer.class)
				.descriptionContains("ENOSYS (38)", "only the mlx5 provider")
				.analysis()
				.getAction();
			String eopnotsupp = FailureAnalysisAssert.of(startupFailure(verb, Errno.EOPNOTSUPP))
				.descriptionContains("EOPNOTSUPP (95)", "only the mlx5 provider")
				.analysis()
				.getAction();
			assertThat(enosys).as(verb).isEqualTo(eopnotsupp).contains("rdma.counter-sets.nvme.device");
		}
	}

	@Test
	void otherCreateFlowFailuresStillPointAtManagedFlowSteering() {
		FailureAnalysisAssert.of(startupFailure("ibv_create_flow", Errno.EOPNOTSUPP))
			.analyzedBy(RdmaOperationFailureAnalyzer.class)
			.actionContains("MANAGED_FLOW_STEERING", "rdma.counter-sets.nvme.flow");
	}

}
