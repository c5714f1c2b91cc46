/*
 * Live counters page of rdma-counters. Polls the rdma Actuator endpoint and the rdma health
 * component, keeps the last readings in memory and computes rates from successive readings.
 * The page arrives with its configuration and, where the server could read them for this
 * user, the first readings, so it paints data before its first poll. No dependencies.
 */
(function () {
	'use strict';

	var HISTORY = 60;
	var ERROR_COUNTER = /(err|discard|drop|downed|violation|out_of_buffer|out_of_sequence|timeout|bad|duplicate|resend|symbol|slow_restart|implied_nak|local_ack|rnr_nak)/;

	var DATA_COUNTER = /^port_(rcv|xmit)_data(_64)?$/;

	var state = {
		endpoint: null,
		healthUrl: null,
		health: null,
		healthProblem: null,
		interval: 2000,
		timer: null,
		paused: false,
		inFlight: false,
		/* whether the last render showed a rate still waiting for its second reading */
		measuring: false,
		soon: null,
		samples: {},
		series: {},
		open: {},
		lastOk: null,
		last: null,
		seen: {},
		changes: []
	};

	var MAX_CHANGES = 50;

	function $(id) {
		return document.getElementById(id);
	}

	/* Builds an element; strings become text nodes, so data from the endpoint is never parsed as HTML. */
	function el(tag, attrs) {
		var node = document.createElement(tag);
		if (attrs) {
			Object.keys(attrs).forEach(function (key) {
				var value = attrs[key];
				if (value === null || value === undefined || value === false) {
					return;
				}
				if (key === 'class') {
					node.className = value;
				}
				else {
					node.setAttribute(key, value === true ? '' : String(value));
				}
			});
		}
		for (var i = 2; i < arguments.length; i++) {
			append(node, arguments[i]);
		}
		return node;
	}

	function append(node, child) {
		if (child === null || child === undefined || child === false) {
			return;
		}
		if (Array.isArray(child)) {
			child.forEach(function (c) {
				append(node, c);
			});
			return;
		}
		node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
	}

	function svg(tag, attrs) {
		var node = document.createElementNS('http://www.w3.org/2000/svg', tag);
		Object.keys(attrs).forEach(function (key) {
			node.setAttribute(key, attrs[key]);
		});
		return node;
	}

	function si(value, unit) {
		if (value === null || value === undefined || isNaN(value)) {
			return '–';
		}
		var prefixes = ['', 'k', 'M', 'G', 'T', 'P'];
		var i = 0;
		var v = Math.abs(value);
		while (v >= 1000 && i < prefixes.length - 1) {
			v /= 1000;
			i++;
		}
		var digits = (i === 0 && Number.isInteger(value)) ? 0 : (v < 10 ? 2 : v < 100 ? 1 : 0);
		return (value < 0 ? '-' : '') + v.toFixed(digits) + ' ' + prefixes[i] + unit;
	}

	function total(value) {
		return (value === null || value === undefined) ? '–' : Number(value).toLocaleString('en-US');
	}

	function time(date) {
		return date.toISOString().substring(11, 19) + 'Z';
	}

	/* Records a reading at time t (ms) and returns the rate per second of each value, null where none is known yet. */
	function observe(key, t, values, sameReading) {
		var previous = state.samples[key];
		var rates = {};
		var fresh = !previous || (t > previous.t && !(sameReading && sameReading(previous)));
		if (previous && fresh) {
			var seconds = (t - previous.t) / 1000;
			Object.keys(values).forEach(function (name) {
				var before = previous.values[name];
				var delta = values[name] - before;
				/* A counter that went down was reset (device reopened): no rate for this step. */
				rates[name] = (typeof before === 'number' && delta >= 0) ? delta / seconds : null;
			});
		}
		else if (previous) {
			rates = previous.rates;
		}
		if (fresh) {
			state.samples[key] = { t: t, values: values, rates: rates };
			Object.keys(rates).forEach(function (name) {
				var series = state.series[key + '#' + name] || (state.series[key + '#' + name] = []);
				series.push(rates[name]);
				if (series.length > HISTORY) {
					series.shift();
				}
			});
		}
		return state.samples[key].rates;
	}

	function sparkline(key, name, kind) {
		var series = state.series[key + '#' + name] || [];
		var width = 120;
		var height = 26;
		var node = svg('svg', { 'class': 'spark spark-' + kind, width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, 'aria-hidden': 'true' });
		var max = 0;
		series.forEach(function (v) {
			if (v !== null && v > max) {
				max = v;
			}
		});
		if (series.length < 2) {
			node.appendChild(svg('line', { x1: 0, y1: height - 1, x2: width, y2: height - 1, 'class': 'spark-empty' }));
			return node;
		}
		/* Newest point on the right; until 20 readings exist the line spans 20 slots. */
		var step = width / (Math.max(series.length, 20) - 1);
		var offset = width - (series.length - 1) * step;
		var points = [];
		series.forEach(function (v, i) {
			var y = (v === null || max === 0) ? height - 1 : height - 1 - (v / max) * (height - 3);
			points.push((offset + i * step).toFixed(1) + ',' + y.toFixed(1));
		});
		node.appendChild(svg('polygon', { points: offset.toFixed(1) + ',' + height + ' ' + points.join(' ') + ' ' + width + ',' + height, 'class': 'spark-area' }));
		node.appendChild(svg('polyline', { points: points.join(' '), 'class': 'spark-line' }));
		return node;
	}

	function stateClass(value, good) {
		if (!value) {
			return 'tag';
		}
		return value.toUpperCase() === good.toUpperCase() ? 'tag tag-ok' : 'tag tag-bad';
	}

	/* The health of one device as the rdma health component reports it, or null. */
	function deviceHealth(name) {
		var health = state.health;
		if (!health) {
			return null;
		}
		if (health.components && health.components[name]) {
			return health.components[name];
		}
		return null;
	}

	function healthTag(health) {
		if (!health || !health.status) {
			return null;
		}
		var cls = health.status === 'UP' ? 'tag tag-ok' : (health.status === 'UNKNOWN' ? 'tag' : 'tag tag-bad');
		return el('span', { 'class': cls, 'data-health': health.status }, 'health ' + health.status);
	}

	function renderDevice(device) {
		var available = device.available;
		var health = deviceHealth(device.name);
		var reason = health && health.details ? health.details.reason : null;
		var bad = !available || device.error || (health && health.status === 'DOWN');
		var card = el('section', { 'class': 'card device' + (bad ? ' card-bad' : ''), 'data-device': device.name, 'data-available': String(available) });
		card.appendChild(el('div', { 'class': 'card-head' },
			el('h2', null, device.name),
			device.backend ? el('span', { 'class': 'tag' }, device.backend) : null,
			el('span', { 'class': available ? 'tag tag-ok' : 'tag tag-bad' }, available ? 'available' : 'unavailable'),
			healthTag(health),
			el('dl', { 'class': 'facts' },
				fact('node GUID', device.nodeGuid),
				fact('firmware', device.firmwareVersion),
				fact('HCA', device.hcaType),
				fact('board', device.boardId),
				fact('flow steering', device.managedFlowSteering === null || device.managedFlowSteering === undefined ? null : (device.managedFlowSteering ? 'managed' : 'none')))));
		if (reason) {
			card.appendChild(el('p', { 'class': 'problem', 'data-health-reason': '' }, 'Health ' + health.status + ': ' + reason));
		}
		if (!available) {
			card.appendChild(el('p', { 'class': 'problem' }, device.unavailableReason || 'The device is not available.'));
		}
		if (device.error) {
			card.appendChild(el('p', { 'class': 'problem' }, 'Query failed: ' + device.error));
		}
		card.appendChild(renderSets(device, health));
		card.appendChild(renderPorts(device));
		return card;
	}

	function fact(name, value) {
		if (value === null || value === undefined || value === '') {
			return null;
		}
		return [el('dt', null, name), el('dd', null, String(value))];
	}

	function renderSets(device, health) {
		var sets = device.counterSets || {};
		var names = Object.keys(sets);
		var wrap = el('div', { 'class': 'block' }, el('h3', null, 'Counter sets'));
		if (names.length === 0) {
			wrap.appendChild(el('p', { 'class': 'muted' }, 'No counter sets on this device.'));
			return wrap;
		}
		var body = el('tbody');
		names.forEach(function (name) {
			var set = sets[name];
			var key = 'set:' + device.name + '/' + name;
			var values = set.values || {};
			var rates = set.readSucceeded ? observe(key, Date.parse(set.readAt), values) : {};
			var failing = !set.readSucceeded;
			var setHealth = health && health.details && health.details.counterSets ? health.details.counterSets[name] : null;
			var down = setHealth && setHealth.status && setHealth.status !== 'UP';
			body.appendChild(el('tr', {
				'class': failing ? 'row-bad' : (set.failedReads > 0 ? 'row-warn' : null),
				'data-set': name,
				'data-device': device.name,
				'data-packets-rate': rates.packets === null || rates.packets === undefined ? null : rates.packets,
				'data-bytes-rate': rates.bytes === null || rates.bytes === undefined ? null : rates.bytes
			},
				el('th', { scope: 'row' }, el('span', { 'class': 'set-name' }, name), el('span', { 'class': 'flow' }, set.flow ? set.flow.match : '')),
				el('td', { 'class': 'num' }, 'port ' + set.port),
				rateCell(key, 'packets', failing ? null : rates.packets, '/s', 'packets', 'Packets/s'),
				rateCell(key, 'bytes', failing ? null : rates.bytes, 'B/s', 'bytes', 'Bytes/s'),
				el('td', { 'class': 'num', 'data-label': 'Total' }, total(values.packets), el('br'), el('span', { 'class': 'muted' }, si(values.bytes, 'B'))),
				el('td', null, failing
					? el('span', { 'class': 'tag tag-bad', title: set.lastError || '' }, 'read failed')
					: (down ? el('span', { 'class': 'tag tag-bad' }, 'health ' + setHealth.status)
						: el('span', { 'class': 'tag tag-ok' }, 'ok')),
					set.failedReads > 0 ? el('span', { 'class': 'muted' }, ' ' + set.failedReads + ' failed') : null,
					failing && set.lastError ? el('div', { 'class': 'problem small' }, set.lastError) : null,
					el('div', { 'class': 'muted small' }, 'read ' + (set.readAt ? time(new Date(set.readAt)) : '–') + ' · ' + set.readMode))));
		});
		wrap.appendChild(el('table', { 'class': 'grid' },
			el('thead', null, el('tr', null, el('th', null, 'Set / flow'), el('th', null, 'Port'), el('th', { 'class': 'rate' }, 'Packets/s'),
				el('th', { 'class': 'rate' }, 'Bytes/s'), el('th', { 'class': 'num' }, 'Packets / bytes'), el('th', null, 'Read'))),
			body));
		return wrap;
	}

	function rateCell(key, name, rate, unit, kind, label) {
		return el('td', { 'class': 'rate', 'data-label': label }, sparkline(key, name, kind), rateText(rate, unit));
	}

	/*
	 * A rate needs two readings: until the second one (rate undefined) it says "measuring";
	 * a step with no rate (a counter reset, a failed read: null) shows a dash.
	 */
	function rateText(rate, unit) {
		if (rate === undefined) {
			state.measuring = true;
			return el('span', { 'class': 'num muted measuring', 'data-measuring': 'true' }, 'measuring');
		}
		return el('span', { 'class': 'num' }, si(rate, unit));
	}

	function renderPorts(device) {
		var ports = device.ports || {};
		var numbers = Object.keys(ports);
		var wrap = el('div', { 'class': 'block' }, el('h3', null, 'Ports'));
		if (numbers.length === 0) {
			wrap.appendChild(el('p', { 'class': 'muted' }, 'No port information.'));
			return wrap;
		}
		var now = Date.now();
		numbers.forEach(function (number) {
			var port = ports[number];
			var key = 'port:' + device.name + '/' + number;
			var counters = port.counters || {};
			/*
			 * The endpoint gives no read time for port counters and serves them from a read cache
			 * (rdma.read-cache-ttl): a snapshot equal to the last one, taken soon after it, is the
			 * same reading, not a second of no traffic.
			 */
			var rates = observe(key, now, counters, function (previous) {
				return now - previous.t < 5000 && sameValues(previous.values, counters);
			});
			var rx = bytesRate(rates, 'port_rcv_data');
			var tx = bytesRate(rates, 'port_xmit_data');
			var errors = Object.keys(counters).filter(function (name) {
				return ERROR_COUNTER.test(name) && rates[name] > 0;
			});
			var portBad = port.error || (port.state && port.state.toUpperCase() !== 'ACTIVE');
			var section = el('div', { 'class': 'port' + (portBad ? ' port-bad' : ''), 'data-port': number },
				el('div', { 'class': 'port-head' },
					el('strong', null, 'Port ' + number),
					el('span', { 'class': stateClass(port.state, 'ACTIVE') }, port.state || 'state unknown'),
					el('span', { 'class': stateClass(port.physicalState, 'LinkUp') }, port.physicalState || 'physical state unknown'),
					el('span', { 'class': 'tag' }, port.linkLayer || 'link layer unknown'),
					el('span', { 'class': 'tag' }, port.rate || 'rate unknown'),
					mtuTag(port),
					port.stateChangedAt ? el('span', { 'class': 'tag', 'data-state-changed': port.stateChangedAt }, 'since ' + time(new Date(port.stateChangedAt))) : null,
					eventTags(port.events),
					'port_rcv_data' in counters ? el('span', { 'class': 'io' }, 'rx ', sparkline(key, 'port_rcv_data', 'rx'), rateText(rx, 'B/s')) : null,
					'port_xmit_data' in counters ? el('span', { 'class': 'io' }, 'tx ', sparkline(key, 'port_xmit_data', 'tx'), rateText(tx, 'B/s')) : null,
					errors.length ? el('span', { 'class': 'tag tag-bad' }, errors.length + ' error counter' + (errors.length > 1 ? 's' : '') + ' rising') : null));
			if (port.error) {
				section.appendChild(el('p', { 'class': 'problem' }, 'Query failed: ' + port.error));
			}
			if (port.unreadableCounters && port.unreadableCounters.length) {
				section.appendChild(el('p', { 'class': 'warn' }, 'Unreadable counters: ' + port.unreadableCounters.join(', ')));
			}
			var names = Object.keys(counters);
			if (names.length) {
				var details = el('details', { 'data-key': key, open: !!state.open[key] || errors.length > 0 },
					el('summary', null, names.length + ' port counters'));
				details.addEventListener('toggle', function () {
					state.open[key] = details.open;
				});
				var list = el('div', { 'class': 'counters' });
				names.forEach(function (name) {
					var rising = ERROR_COUNTER.test(name) && rates[name] > 0;
					list.appendChild(el('div', { 'class': 'counter' + (rising ? ' counter-bad' : ''), 'data-counter': name },
						el('code', { 'class': 'counter-name' }, name),
						el('span', { 'class': 'num' }, DATA_COUNTER.test(name) ? si(counters[name], 'B') : total(counters[name])),
						el('span', { 'class': 'num muted' }, rates[name] ? si(rates[name], DATA_COUNTER.test(name) ? 'B/s' : '/s') : '')));
				});
				details.appendChild(list);
				section.appendChild(details);
			}
			wrap.appendChild(section);
		});
		return wrap;
	}

	/* The port's asynchronous events so far, by type, e.g. "port_err 2". */
	function eventTags(events) {
		if (!events) {
			return null;
		}
		return Object.keys(events).map(function (type) {
			return el('span', { 'class': type === 'port_active' ? 'tag' : 'tag tag-warn', 'data-event': type }, type + ' ' + events[type]);
		});
	}

	function sameValues(a, b) {
		var keys = Object.keys(b);
		return keys.length === Object.keys(a).length && keys.every(function (k) {
			return a[k] === b[k];
		});
	}

	/* The endpoint reports the data counters in bytes (the source converts sysfs's 4-octet words). */
	function bytesRate(rates, name) {
		return rates[name];
	}

	/*
	 * The active MTU comes from a verbs port query, which only the ports that counter sets
	 * count on get; the others show why there is none.
	 */
	function mtuTag(port) {
		if (port.activeMtu) {
			return el('span', { 'class': 'tag' }, 'MTU ' + port.activeMtu);
		}
		if (port.error) {
			return null;
		}
		return el('span', { 'class': 'tag tag-muted', 'data-mtu': 'absent', title: 'The MTU comes from a verbs query of the port, made only for ports that a counter set counts on.' },
			'MTU not read: no counter set on this port');
	}

	/* Notes the port states and device health of a reading that differ from the last one seen. */
	function noteChanges(data) {
		var now = new Date();
		var devices = data.devices || {};
		Object.keys(devices).forEach(function (name) {
			var device = devices[name];
			var health = deviceHealth(name);
			if (health && health.status) {
				var reason = health.details && health.details.reason ? ': ' + health.details.reason : '';
				note('health:' + name, health.status, now, name + ' health ' + health.status + reason);
			}
			var ports = device.ports || {};
			Object.keys(ports).forEach(function (number) {
				var port = ports[number];
				if (port.state) {
					var at = port.stateChangedAt ? new Date(port.stateChangedAt) : now;
					note('port:' + name + '/' + number, port.state, at, name + ' port ' + number + ' ' + port.state);
				}
			});
		});
	}

	function note(key, value, at, text) {
		var previous = state.seen[key];
		state.seen[key] = value;
		if (previous === undefined || previous === value) {
			return;
		}
		state.changes.push({ at: at, text: text, from: previous });
		if (state.changes.length > MAX_CHANGES) {
			state.changes.shift();
		}
	}

	function renderChanges() {
		var list = $('event-list');
		list.replaceChildren();
		if (state.changes.length === 0) {
			list.appendChild(el('li', { 'class': 'muted' }, 'No change since this page was opened.'));
			return;
		}
		state.changes.slice().reverse().forEach(function (change) {
			list.appendChild(el('li', { 'data-change': '' }, el('time', null, time(change.at)), ' ', change.text,
				el('span', { 'class': 'muted' }, ' (was ' + change.from + ')')));
		});
	}

	function renderHealthProblem() {
		var node = $('health-problem');
		node.hidden = !state.healthProblem;
		node.textContent = state.healthProblem || '';
	}

	function render(data) {
		var main = $('devices');
		var devices = data.devices || {};
		var names = Object.keys(devices);
		var nodes = names.map(function (name) {
			return renderDevice(devices[name]);
		});
		if (nodes.length === 0) {
			nodes.push(el('section', { 'class': 'card' }, el('p', { 'class': 'muted' }, 'The application manages no RDMA device (rdma.enabled is false or no device was configured).')));
		}
		main.replaceChildren.apply(main, nodes);
		noteChanges(data);
		renderChanges();
		renderHealthProblem();
	}

	function setStatus(kind, text) {
		var status = $('status');
		status.className = 'pill pill-' + kind;
		status.textContent = text;
		document.body.setAttribute('data-state', kind);
	}

	function explainHealth(response) {
		if (response.status === 404) {
			return 'Health is not shown: ' + state.healthUrl + ' answered 404 (include health in management.endpoints.web.exposure.include).';
		}
		return 'Health is not shown: ' + state.healthUrl + ' answered HTTP ' + response.status + '.';
	}

	/* The rdma health component; it answers 503 with its body when it is DOWN. */
	function readHealth() {
		if (!state.healthUrl) {
			return Promise.resolve();
		}
		return fetch(state.healthUrl, { headers: { Accept: 'application/json' }, cache: 'no-store' })
			.then(function (response) {
				if (!response.ok && response.status !== 503) {
					throw new Error(explainHealth(response));
				}
				return response.json();
			})
			.then(function (health) {
				state.health = health;
				state.healthProblem = health && !health.components && !health.details && health.status !== 'UP'
					? 'Health ' + health.status + ' without details: set management.endpoint.health.show-details to see why.' : null;
			})
			.catch(function (error) {
				state.health = null;
				state.healthProblem = error instanceof TypeError ? 'Health is not shown: cannot reach ' + state.healthUrl + '.' : error.message;
			});
	}

	function explain(response) {
		if (response.status === 404) {
			return 'The rdma endpoint answered 404 at ' + state.endpoint + ': include rdma in management.endpoints.web.exposure.include and check management.endpoint.rdma.access.';
		}
		if (response.status === 401 || response.status === 403) {
			return 'Not allowed to read ' + state.endpoint + ' (HTTP ' + response.status + '): sign in with a user that may read Actuator endpoints.';
		}
		return 'The rdma endpoint answered HTTP ' + response.status + ' at ' + state.endpoint + '.';
	}

	function fail(message) {
		var banner = $('banner');
		banner.textContent = message + (state.lastOk ? ' Showing the data of ' + time(state.lastOk) + '; rates are not updated.' : '');
		banner.hidden = false;
		$('devices').classList.add('stale');
		setStatus('stale', state.lastOk ? 'stale since ' + time(state.lastOk) : 'no data');
	}

	function poll() {
		if (state.paused || state.inFlight) {
			return;
		}
		state.inFlight = true;
		var health = readHealth();
		fetch(state.endpoint, { headers: { Accept: 'application/json' }, cache: 'no-store' })
			.then(function (response) {
				if (!response.ok) {
					throw new Error(explain(response));
				}
				return response.json();
			})
			.then(function (data) {
				return health.then(function () {
					show(data);
				});
			})
			.catch(function (error) {
				fail(error instanceof TypeError ? 'Cannot reach ' + state.endpoint + ': ' + error.message + '.' : error.message);
			})
			.then(function () {
				state.inFlight = false;
			});
	}

	function show(data) {
		state.lastOk = new Date();
		state.last = data;
		state.measuring = false;
		render(data);
		/* The second reading comes 1 s after the first, not a whole poll interval later. */
		if (state.measuring && !state.soon && state.interval > 1000) {
			state.soon = setTimeout(function () {
				state.soon = null;
				poll();
			}, 1000);
		}
		$('banner').hidden = true;
		$('devices').classList.remove('stale');
		setStatus('live', 'live');
		$('updated').textContent = 'updated ' + time(state.lastOk);
	}

	function togglePause() {
		state.paused = !state.paused;
		$('pause').textContent = state.paused ? 'Resume' : 'Pause';
		if (state.paused) {
			setStatus('paused', 'paused');
		}
		else {
			/* Rates across a pause would average over it: start the series again. */
			state.samples = {};
			poll();
		}
	}

	function start(config, initial) {
		state.endpoint = config.endpoint;
		state.healthUrl = config.health || null;
		state.interval = config.pollIntervalMillis || 2000;
		$('endpoint').textContent = state.endpoint;
		$('interval').textContent = (state.interval / 1000) + ' s';
		if (config.application) {
			$('application').textContent = config.application;
			document.title = 'RDMA counters · ' + config.application;
		}
		$('pause').addEventListener('click', togglePause);
		if (initial && initial.rdma) {
			state.health = initial.health;
			show(initial.rdma);
		}
		else {
			poll();
		}
		state.timer = setInterval(poll, state.interval);
	}

	function dataBlock(id) {
		var node = $(id);
		return node ? JSON.parse(node.textContent) : null;
	}

	document.addEventListener('DOMContentLoaded', function () {
		var config = dataBlock('rdma-config');
		if (!config) {
			fail('The page came without its configuration (rdma-config).');
			return;
		}
		start(config, dataBlock('rdma-initial'));
	});
})();
