package io.github.rdmacounters.verbs;

import java.util.Map;
import java.util.TreeMap;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.IbvHandles.IbvCq;
import io.github.rdmacounters.verbs.IbvHandles.IbvPd;
import io.github.rdmacounters.verbs.IbvHandles.IbvQp;

/**
 * The queue pair resources flows hang on: one protection domain and completion queue per
 * device, one raw packet queue pair per port. The caller holds the device's write lock.
 */
final class RawPacketQueuePairs {

	// sizeof and offsetof of struct ibv_qp_attr
	static final int QP_ATTR_SIZE = 144;

	static final int QP_ATTR_QP_STATE = 0;

	static final int QP_ATTR_PORT_NUM = 129;

	private final IbvLibrary lib;

	private final String name;

	private final IbvContext context;

	private @Nullable IbvPd pd;

	private @Nullable IbvCq cq;

	private final Map<Integer, IbvQp> queuePairs = new TreeMap<>();

	RawPacketQueuePairs(IbvLibrary lib, String name, IbvContext context) {
		this.lib = lib;
		this.name = name;
		this.context = context;
	}

	/**
	 * Return the port's raw packet queue pair, creating it on first use and moving it to
	 * INIT on the port, then RTR. {@code ib_uverbs_ex_create_flow} checks only the QP
	 * type and {@code CAP_NET_RAW}; the moves make it a complete receive queue pair. A
	 * failure leaves nothing that no queue pair uses.
	 */
	IbvQp queuePair(int port) {
		IbvQp existing = this.queuePairs.get(port);
		if (existing != null) {
			return existing;
		}
		try {
			IbvPd sharedPd = protectionDomain();
			IbvCq sharedCq = completionQueue();
			IbvQpInitAttr attr = new IbvQpInitAttr();
			attr.send_cq = sharedCq.getPointer();
			attr.recv_cq = sharedCq.getPointer();
			attr.max_send_wr = 1;
			attr.max_recv_wr = 1;
			attr.max_send_sge = 1;
			attr.max_recv_sge = 1;
			attr.qp_type = IbvLibrary.IBV_QPT_RAW_PACKET;
			IbvQp newQp = this.lib.ibv_create_qp(sharedPd, attr);
			if (newQp == null) {
				int errno = Native.getLastError();
				String explanation = Errno.explain("ibv_create_qp", errno);
				String what = "raw packet queue pair on " + this.name + " port " + port;
				throw Verbs.failure("ibv_create_qp", errno, (explanation != null) ? what + ": " + explanation : what);
			}
			try {
				Memory qpAttr = new Memory(QP_ATTR_SIZE);
				qpAttr.clear();
				qpAttr.setInt(QP_ATTR_QP_STATE, IbvLibrary.IBV_QPS_INIT);
				qpAttr.setByte(QP_ATTR_PORT_NUM, (byte) port);
				modify(newQp, qpAttr, IbvLibrary.IBV_QP_STATE | IbvLibrary.IBV_QP_PORT, "INIT", port);
				qpAttr.setInt(QP_ATTR_QP_STATE, IbvLibrary.IBV_QPS_RTR);
				modify(newQp, qpAttr, IbvLibrary.IBV_QP_STATE, "RTR", port);
			}
			catch (RdmaOperationException ex) {
				int rc = this.lib.ibv_destroy_qp(newQp);
				if (rc != 0) {
					ex.addSuppressed(Verbs.failure("ibv_destroy_qp", rc, "after a failed ibv_modify_qp"));
				}
				throw ex;
			}
			this.queuePairs.put(port, newQp);
			return newQp;
		}
		catch (RdmaOperationException ex) {
			if (this.queuePairs.isEmpty()) {
				releaseShared(ex);
			}
			throw ex;
		}
	}

	private void modify(IbvQp queuePair, Memory attr, int mask, String state, int port) {
		int rc = this.lib.ibv_modify_qp(queuePair, attr, mask);
		if (rc != 0) {
			throw Verbs.failure("ibv_modify_qp", rc,
					"moving the raw packet queue pair of " + this.name + " port " + port + " to " + state);
		}
	}

	private IbvPd protectionDomain() {
		IbvPd existing = this.pd;
		if (existing != null) {
			return existing;
		}
		IbvPd created = this.lib.ibv_alloc_pd(this.context);
		if (created == null) {
			throw Verbs.failure("ibv_alloc_pd", Native.getLastError(), "device " + this.name);
		}
		this.pd = created;
		return created;
	}

	private IbvCq completionQueue() {
		IbvCq existing = this.cq;
		if (existing != null) {
			return existing;
		}
		IbvCq created = this.lib.ibv_create_cq(this.context, 1, null, null, 0);
		if (created == null) {
			throw Verbs.failure("ibv_create_cq", Native.getLastError(), "device " + this.name);
		}
		this.cq = created;
		return created;
	}

	// After a failed creation; failures are added to the creation's exception
	private void releaseShared(RdmaOperationException failure) {
		IbvCq oldCq = this.cq;
		if (oldCq != null) {
			int rc = this.lib.ibv_destroy_cq(oldCq);
			if (rc == 0) {
				this.cq = null;
			}
			else {
				failure.addSuppressed(Verbs.failure("ibv_destroy_cq", rc, "device " + this.name));
			}
		}
		IbvPd oldPd = this.pd;
		if (oldPd != null && this.cq == null) {
			int rc = this.lib.ibv_dealloc_pd(oldPd);
			if (rc == 0) {
				this.pd = null;
			}
			else {
				failure.addSuppressed(Verbs.failure("ibv_dealloc_pd", rc, "device " + this.name));
			}
		}
	}

	// A queue pair whose destroy fails stays, with the completion queue and protection
	// domain, and is retried by the next call
	void destroy() {
		var iterator = this.queuePairs.entrySet().iterator();
		RdmaOperationException failure = null;
		while (iterator.hasNext()) {
			IbvQp oldQp = iterator.next().getValue();
			int rc = this.lib.ibv_destroy_qp(oldQp);
			if (rc == 0) {
				iterator.remove();
			}
			else if (failure == null) {
				failure = Verbs.failure("ibv_destroy_qp", rc, "closing " + this.name);
			}
			else {
				failure.addSuppressed(Verbs.failure("ibv_destroy_qp", rc, "closing " + this.name));
			}
		}
		if (failure != null) {
			throw failure;
		}
		IbvCq oldCq = this.cq;
		if (oldCq != null) {
			check("ibv_destroy_cq", this.lib.ibv_destroy_cq(oldCq));
			this.cq = null;
		}
		IbvPd oldPd = this.pd;
		if (oldPd != null) {
			check("ibv_dealloc_pd", this.lib.ibv_dealloc_pd(oldPd));
			this.pd = null;
		}
	}

	// The closed context freed them
	void freedWithContext() {
		this.queuePairs.clear();
		this.cq = null;
		this.pd = null;
	}

	private void check(String verb, int rc) {
		if (rc != 0) {
			throw Verbs.failure(verb, rc, "closing " + this.name);
		}
	}

}
