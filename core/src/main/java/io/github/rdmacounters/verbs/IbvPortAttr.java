package io.github.rdmacounters.verbs;

import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * {@code struct ibv_port_attr} of rdma-core 50 and later, ending with
 * {@code active_speed_ex}. An older library zeroes the whole buffer and fills what its
 * struct holds ({@code __lib_query_port} in {@code libibverbs/verbs.c}), so
 * {@code active_speed_ex} then reads 0. Internal; not part of the API (public because JNA
 * reflects on it).
 */
@FieldOrder({ "state", "max_mtu", "active_mtu", "gid_tbl_len", "port_cap_flags", "max_msg_sz", "bad_pkey_cntr",
		"qkey_viol_cntr", "pkey_tbl_len", "lid", "sm_lid", "lmc", "max_vl_num", "sm_sl", "subnet_timeout",
		"init_type_reply", "active_width", "active_speed", "phys_state", "link_layer", "flags", "port_cap_flags2",
		"active_speed_ex" })
public class IbvPortAttr extends Structure {

	public int state;

	public int max_mtu;

	/** {@code enum ibv_mtu active_mtu}: 1 is 256 bytes, 5 is 4096. */
	public int active_mtu;

	public int gid_tbl_len;

	public int port_cap_flags;

	public int max_msg_sz;

	public int bad_pkey_cntr;

	public int qkey_viol_cntr;

	public short pkey_tbl_len;

	public short lid;

	public short sm_lid;

	public byte lmc;

	public byte max_vl_num;

	public byte sm_sl;

	public byte subnet_timeout;

	public byte init_type_reply;

	public byte active_width;

	public byte active_speed;

	public byte phys_state;

	public byte link_layer;

	public byte flags;

	public short port_cap_flags2;

	/** Speed code, also beyond a byte (XDR is 256); 0 where not reported. */
	public int active_speed_ex;

	// As ibv_devinfo reads it (libibverbs/examples/devinfo.c)
	int speed() {
		return (this.active_speed_ex != 0) ? this.active_speed_ex : (this.active_speed & 0xFF);
	}

	// Without the structure's address, which Structure.toString() prints
	@Override
	public String toString() {
		return "ibv_port_attr[state=" + this.state + ", phys_state=" + (this.phys_state & 0xFF) + ", link_layer="
				+ (this.link_layer & 0xFF) + ", active_mtu=" + this.active_mtu + ", active_speed="
				+ (this.active_speed & 0xFF) + ", active_speed_ex=" + Integer.toUnsignedString(this.active_speed_ex)
				+ ", active_width=" + (this.active_width & 0xFF) + "]";
	}

	static int offsetOf(String field) {
		return new IbvPortAttr().fieldOffset(field);
	}

	static int sizeOf() {
		return new IbvPortAttr().size();
	}

}
