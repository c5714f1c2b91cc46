package io.github.rdmacounters.core;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NameFilter}.
 *
 * @author rdma-counters
 */
class NameFilterTests {

	@Test
	void closestNamesComeFewestEditsFirstThenByName() {
		List<String> names = List.of("mlx5_1", "mlx5_0", "irdma0", "rxe0", "mlx5_10");
		assertThat(NameFilter.closest("mlx5_9", names, 3)).containsExactly("mlx5_0", "mlx5_1", "mlx5_10");
		assertThat(NameFilter.closest(" rx_prio3_pausee ", List.of("rx_prio3_pause", "tx_prio3_pause", "rx_bytes"), 1))
			.containsExactly("rx_prio3_pause");
		assertThat(NameFilter.closest("x", List.of(), 3)).isEmpty();
	}

	@Test
	void aBlankEntryAmongOthersIsAProblemAndAListOfOneBlankEntryIsNone() {
		assertThat(NameFilter.problems(Arrays.asList("port_*", "", "port_rcv_*"), "rdma.port-counters.include",
				"a port counter file name", "port_*"))
			.singleElement()
			.satisfies((problem) -> {
				assertThat(problem.property()).isEqualTo("rdma.port-counters.include[1]");
				assertThat(problem.value()).isEqualTo("");
				assertThat(problem.requirement()).contains("not blank");
			});
		assertThat(
				NameFilter.problems(List.of(" "), "rdma.port-counters.include", "a port counter file name", "port_*"))
			.isEmpty();
	}

	@Test
	void unmatchedEntriesAreThoseThatMatchNoNamePassingOverBlankOnes() {
		List<String> names = List.of("mlx5_0", "mlx5_1", "rxe0");
		List<String> entries = Arrays.asList("mlx5_*", "nomatch*", " ", null, "rxe0", "mlx5_2", "?xe0");
		assertThat(NameFilter.unmatched(entries, names)).containsExactly(1, 5);
		assertThat(NameFilter.unmatched(List.of("mlx5_*"), List.of())).containsExactly(0);
		assertThat(NameFilter.unmatched(List.of(), names)).isEmpty();
	}

}
