package io.github.rdmacounters.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Errno}.
 *
 * @author rdma-counters
 */
class ErrnoTests {

	@Test
	void describeGivesNameNumberAndMessage() {
		assertThat(Errno.describe(Errno.EOPNOTSUPP)).isEqualTo("EOPNOTSUPP (95) Operation not supported");
		assertThat(Errno.describe(4242)).isEqualTo("errno 4242 (Unknown error 4242)");
	}

	@Test
	void explainNamesTheUsualCauseOfAnErrnoFromAVerb() {
		assertThat(Errno.explain("ibv_create_qp", Errno.EPERM)).contains("CAP_NET_RAW");
		assertThat(Errno.explain("ibv_create_flow", Errno.EACCES)).contains("CAP_NET_RAW");
		assertThat(Errno.explain("ibv_create_counters", Errno.ENOSYS)).startsWith("only the mlx5 provider");
		assertThat(Errno.explain("ibv_read_counters", Errno.EOPNOTSUPP)).startsWith("only the mlx5 provider");
		assertThat(Errno.explain("ibv_create_flow", Errno.EINVAL)).contains("Linux 5.8 or later (commit 8e14c75c999a)");
		assertThat(Errno.explain("ibv_create_flow", Errno.ENOMEM)).contains("user flow priorities")
			.contains("steering table");
	}

	@Test
	void explainHasNothingForAnErrnoWithoutOneUsualCause() {
		assertThat(Errno.explain("ibv_query_port", Errno.EPERM)).isNull();
		assertThat(Errno.explain("ibv_create_qp", Errno.ENOMEM)).isNull();
		assertThat(Errno.explain("ibv_create_flow", Errno.EIO)).isNull();
	}

}
