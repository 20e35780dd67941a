--------------------------------- MODULE SVG ---------------------------------
(* specula's text of the community module SVG: SVG elements as records       *)
(* [name, attrs, children, innerText] and their text.  SVGElemToString,       *)
(* PointOnLine, NodeOfRingNetwork and NodesOfDirectedMultiGraph are native.   *)
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences
LOCAL INSTANCE Integers
LOCAL INSTANCE TLC
LOCAL INSTANCE FiniteSets

\* the fields of r1, then those of r2 that r1 lacks
LOCAL Merge(r1, r2) == [k \in DOMAIN r1 \cup DOMAIN r2 |-> IF k \in DOMAIN r1 THEN r1[k] ELSE r2[k]]

SVGElem(_name, _attrs, _children, _innerText) ==
  [name |-> _name, attrs |-> _attrs, children |-> _children, innerText |-> _innerText]

Line(x1, y1, x2, y2, attrs) ==
  SVGElem("line", Merge([x1 |-> ToString(x1), y1 |-> ToString(y1), x2 |-> ToString(x2), y2 |-> ToString(y2)],
                        attrs), << >>, "")
Circle(cx, cy, r, attrs) ==
  SVGElem("circle", Merge([cx |-> ToString(cx), cy |-> ToString(cy), r |-> ToString(r)], attrs), << >>, "")
Rect(x, y, w, h, attrs) ==
  SVGElem("rect", Merge([x |-> ToString(x), y |-> ToString(y), width |-> ToString(w), height |-> ToString(h)],
                        attrs), << >>, "")
Text(x, y, text, attrs) ==
  SVGElem("text", Merge([x |-> ToString(x), y |-> ToString(y)], attrs), << >>, text)
Image(x, y, width, height, href, attrs) ==
  SVGElem("image", Merge(("xlink:href" :> href) @@ ("x" :> ToString(x)) @@ ("y" :> ToString(y))
                           @@ ("width" :> ToString(width)) @@ ("height" :> ToString(height)), attrs),
          << >>, "")
Group(children, attrs) == SVGElem("g", attrs, children, "")
Svg(children, attrs) == SVGElem("svg", attrs, children, "")
SVGDoc(children, vbX, vbY, vbW, vbH, attrs) ==
  Svg(<<children>>,
      Merge(("xmlns:xlink" :> "http://www.w3.org/1999/xlink") @@ ("xmlns" :> "http://www.w3.org/2000/svg")
              @@ ("viewBox" :> ToString(vbX) \o " " \o ToString(vbY) \o " " \o ToString(vbW) \o " " \o ToString(vbH)),
            attrs))

\* <name a1='v1' ...>innerText children</name> (native)
SVGElemToString(elem) == ""

\* the n-th of m points on the circle of radius r around (cx, cy) (native)
NodeOfRingNetwork(cx, cy, r, n, m) == [x |-> 0, y |-> 0]

\* a layout of the directed graph: node -> [x, y] (native)
NodesOfDirectedMultiGraph(nodes, edges, options) == [n \in nodes |-> [x |-> 0, y |-> 0]]

\* the point 1/segment of the way from from to to
PointOnLine(from, to, segment) ==
  [x |-> from.x + ((to.x - from.x) \div segment), y |-> from.y + ((to.y - from.y) \div segment)]

\* writes the SVG text of svg to frameNamePrefix followed by the 3-digit frame number and .svg
SVGSerialize(svg, frameNamePrefix, frameNumber) ==
  LET IO == INSTANCE IOUtils
  IN IO!Serialize(SVGElemToString(svg), frameNamePrefix \o IO!zeroPadN(frameNumber, 3) \o ".svg",
                  [format |-> "TXT", charset |-> "UTF-8",
                   openOptions |-> <<"WRITE", "CREATE", "TRUNCATE_EXISTING">>])
=============================================================================
