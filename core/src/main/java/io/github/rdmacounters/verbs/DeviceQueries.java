package io.github.rdmacounters.verbs;

import com.sun.jna.Function;

import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.VerbsOps.Op;

/**
 * The device and port queries of an open context. The caller holds the device's lock and
 * has checked that the device is open.
 */
final class DeviceQueries {

	private final IbvLibrary lib;

	private final String name;

	private final IbvContext context;

	private final VerbsOps ops;

	private volatile long capabilityFlags = -1;

	DeviceQueries(IbvLibrary lib, String name, IbvContext context, VerbsOps ops) {
		this.lib = lib;
		this.name = name;
		this.context = context;
		this.ops = ops;
	}

	IbvDeviceAttr queryDeviceAttr() {
		IbvDeviceAttr attr = new IbvDeviceAttr();
		int rc = this.lib.ibv_query_device(this.context, attr);
		if (rc != 0) {
			throw Verbs.failure("ibv_query_device", rc, "device " + this.name);
		}
		// fixed for the context (ib_device.attrs): a later flow needs no query
		this.capabilityFlags = attr.device_cap_flags & 0xFFFF_FFFFL;
		return attr;
	}

	// As the ibv_query_port macro of verbs.h: the full-size query_port op, else the
	// exported compat symbol
	IbvPortAttr queryPortAttr(int port) {
		IbvPortAttr attr = new IbvPortAttr();
		Function queryPort = this.ops.get(Op.QUERY_PORT);
		int rc;
		if (queryPort != null) {
			rc = queryPort.invokeInt(new Object[] { this.context.getPointer(), (byte) port, attr, (long) attr.size() });
			attr.read();
		}
		else {
			rc = this.lib.ibv_query_port(this.context, (byte) port, attr);
		}
		if (rc != 0) {
			throw Verbs.failure("ibv_query_port", rc, "device " + this.name + " port " + port);
		}
		return attr;
	}

	// Queries unless a device query of this context told it
	boolean managedFlowSteering() {
		long flags = this.capabilityFlags;
		if (flags < 0) {
			queryDeviceAttr();
			flags = this.capabilityFlags;
		}
		return (flags & DeviceAttributes.MANAGED_FLOW_STEERING) != 0;
	}

}
